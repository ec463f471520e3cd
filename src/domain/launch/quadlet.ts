// A podman quadlet (`.container`) read as the `podman run` it generates: [Container] keys become the
// options they stand for (ContainerName= -> --name, Volume= -> -v, PodmanArgs= verbatim...), Image= the
// image and Exec= the arguments after it, each word keeping the line of its key. Pure.
import type { Command, PodmanRun, Word } from "./model.js";
import { lexWords } from "./lexer.js";
import { readPodmanRun } from "./podman.js";
import { unitEntries, type UnitEntry, type UnitFile } from "./unit.js";

/** [Container] keys and the podman option each generates (podman-systemd.unit(5)). */
const OPTION_OF: Record<string, string> = {
  ContainerName: "--name",
  AddDevice: "--device",
  Volume: "--volume",
  Mount: "--mount",
  Environment: "--env",
  EnvironmentFile: "--env-file",
  PublishPort: "--publish",
  ShmSize: "--shm-size",
  Ulimit: "--ulimit",
  Network: "--network",
  Entrypoint: "--entrypoint",
  User: "--user",
  WorkingDir: "--workdir",
  Label: "--label",
  Secret: "--secret",
  HealthCmd: "--health-cmd",
  Tmpfs: "--tmpfs",
  GroupAdd: "--group-add",
  AddCapability: "--cap-add",
  Pod: "--pod",
};
/** keys whose value is several space-separated items, each its own option */
const MULTI = new Set(["Environment", "AddCapability", "Label"]);

const word = (text: string, line: number): Word => ({ text, line, optional: false, dynamic: false, resolved: text });

/** The words of an entry's value as systemd splits them (quotes honoured), with the entry's lines. */
function valueWords(e: UnitEntry, lines: readonly string[]): Word[] {
  const raw = lines.slice(e.line - 1, e.endLine).join("\n");
  return lexWords(raw.slice(raw.indexOf("=") + 1), e.line).map((w) => ({
    text: w.text,
    line: w.line,
    optional: false,
    dynamic: w.dynamic,
    ...(w.dynamic ? {} : { resolved: w.text }),
  }));
}

/** The podman run a quadlet generates, or null when it names no image. */
export function quadletRun(unit: UnitFile, lines: readonly string[]): PodmanRun | null {
  const image = unitEntries(unit, "Container", "Image").at(-1);
  if (!image) return null;
  const exec = unitEntries(unit, "Container", "Exec").at(-1);
  // quadlet always runs the container with --replace and --rm (a restart never meets an old container)
  const words: Word[] = [word("--replace", image.line), word("--rm", image.line)];
  for (const e of unit.entries.filter((x) => x.section === "Container")) {
    const opt = OPTION_OF[e.key];
    if (e.key === "PodmanArgs") words.push(...valueWords(e, lines));
    else if (opt && MULTI.has(e.key)) for (const w of valueWords(e, lines)) words.push(word(opt, e.line), w);
    else if (opt) words.push(word(opt, e.line), word(e.value, e.line));
  }
  words.push(word(image.value, image.line));
  if (exec) words.push(...valueWords(exec, lines));
  const at = exec ?? image;
  const command: Command = {
    words,
    assignments: [],
    line: at.line,
    endLine: at.endLine,
    source: lines.slice(at.line - 1, at.endLine).join("\n"),
    redirects: [],
    pipeTo: null,
  };
  return readPodmanRun(command, words, "quadlet");
}
