// compose's top-level `include:`: a compose file that includes others starts their services too when its users run
// `docker compose up` beside it (compose merges the included files into one project). Pure.
import { posix } from "node:path";
import { readYaml, YamlReader } from "./yaml-node.js";

/**
 * The compose files a file's top-level `include:` names (`- llama.cpp/docker-compose.yml`, `- path: a.yml` or a list
 * of paths), as repository paths from the file's directory `dir`: `docker compose up` beside it starts their services
 * too (compose merges them into one project). Empty when there is no include.
 */
export function includedFiles(text: string, dir = ""): string[] {
  if (!/^include\s*:/m.test(text)) return [];
  const src = readYaml(text);
  const doc = src?.docs[0];
  if (!src || !doc) return [];
  const y = new YamlReader(src, doc);
  return y
    .items(y.get(doc.contents, "include"))
    .flatMap((item) => {
      const short = y.str(item);
      if (short !== null) return [short];
      const path = y.get(item, "path");
      return y.str(path) !== null ? [y.str(path)!] : y.items(path).flatMap((p) => y.str(p) ?? []);
    })
    .map((p) => posix.normalize(posix.join(dir, p)))
    .filter((p) => !p.startsWith("../") && !posix.isAbsolute(p));
}
