// A container that runs a script a ConfigMap holds (`command: [/scripts/startup.sh]`, or `[bash, /scripts/x.sh]`,
// the ConfigMap mounted at /scripts): kubelet starts the ConfigMap's text with the container's arguments, so when the
// ConfigMap is in the same text the container is read as `sh -c TEXT /scripts/startup.sh ARGS...` (its "$@" the
// args), each word of the script on the ConfigMap's own line. Pure.
import type { Node } from "yaml";
import type { Word } from "./model.js";
import { optionWord, yamlWord, type YamlReader } from "./yaml-node.js";

/** The ConfigMaps of a text: name -> its reader and `data:` map. */
export type ConfigMaps = ReadonlyMap<string, { y: YamlReader; data: unknown }>;

export function configMapsOf(readers: readonly YamlReader[]): ConfigMaps {
  const out = new Map<string, { y: YamlReader; data: unknown }>();
  for (const y of readers) {
    const doc = y.doc.contents;
    if (y.str(y.get(doc, "kind")) !== "ConfigMap") continue;
    const name = y.str(y.get(y.get(doc, "metadata"), "name"));
    if (name) out.set(name, { y, data: y.get(doc, "data") });
  }
  return out;
}

const SHELL = /^(?:\/(?:usr\/)?bin\/)?(?:ba|da)?sh$/;

/**
 * The container's argv with a mounted ConfigMap script spelt out as `sh -c TEXT PATH ...`; the argv as it is when
 * the program is no such script (or its ConfigMap is not in the text).
 */
export function withMountedScript(
  y: YamlReader,
  pod: Node,
  c: Node,
  argv: readonly Word[],
  maps: ConfigMaps,
): readonly Word[] {
  // `/scripts/x.sh ...` or `bash /scripts/x.sh ...` (not `bash -c ...`: that text is read as it is)
  const at = argv[0] && SHELL.test(argv[0].text) ? 1 : 0;
  const path = argv[at];
  if (!path?.text.startsWith("/") || maps.size === 0) return argv;
  const script = mountedScript(y, pod, c, path.text, maps);
  if (!script) return argv;
  return [optionWord("sh", path.line), optionWord("-c", path.line), script, ...argv.slice(at)];
}

/** The text a path in the container is, when a volume from a ConfigMap of the text is mounted over it. */
function mountedScript(y: YamlReader, pod: Node, c: Node, path: string, maps: ConfigMaps): Word | null {
  for (const m of y.items(y.get(c, "volumeMounts"))) {
    const dir = (y.str(y.get(m, "mountPath")) ?? "").replace(/\/+$/, "");
    const sub = y.str(y.get(m, "subPath"));
    // a subPath mounts one key as the file itself; else the directory holds a file per key (or per item's path)
    const file =
      sub !== null ? (path === dir ? sub : null) : path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : null;
    if (!file) continue;
    const vol = y.items(y.get(pod, "volumes")).find((v) => y.str(y.get(v, "name")) === y.str(y.get(m, "name")));
    const cm = y.get(vol, "configMap");
    const found = maps.get(y.str(y.get(cm, "name")) ?? "");
    if (!found) continue;
    const item = y.items(y.get(cm, "items")).find((i) => y.str(y.get(i, "path")) === file);
    const key = sub !== null ? file : item ? (y.str(y.get(item, "key")) ?? file) : file;
    const value = found.y.get(found.data, key);
    const text = found.y.str(value);
    if (text === null) continue;
    return yamlWord(text, found.y.textLine(value), () => undefined);
  }
  return null;
}
