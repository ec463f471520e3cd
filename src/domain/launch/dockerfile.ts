// A Dockerfile read for what its image runs: the final stage's base image (through the file's own stages and its
// global ARG defaults), ENTRYPOINT and CMD as BuildKit sets them, and where COPY/ADD put the repository's files. A
// compose service built from this repository runs that, not whatever its `image:` tag suggests. Pure.
import { posix } from "node:path";
import { lexWords } from "./lexer.js";
import type { DockerImage, Word } from "./model.js";

interface Stage {
  name: string | null;
  from: string;
  fromLine: number;
  entrypoint: Word[] | null;
  cmd: Word[] | null;
  cmdSet: boolean;
  copies: { src: string; dest: string }[];
  workdir: string;
}

interface Instruction {
  op: string;
  rest: string;
  line: number;
}

/** The Dockerfile's instructions, continuation lines joined, comments and heredoc bodies left out. */
function instructions(text: string): Instruction[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const directive = /^#\s*escape\s*=\s*(\S)/i.exec(lines[0] ?? "");
  const esc = directive?.[1] === "`" ? "`" : "\\";
  const out: Instruction[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = i;
    let body = "";
    for (; i < lines.length; i++) {
      const l = lines[i]!;
      // a comment or blank line inside a continued instruction is dropped, the instruction goes on
      if (body && /^\s*(#|$)/.test(l)) continue;
      if (!body && /^\s*(#|$)/.test(l)) break;
      const t = l.replace(/\s+$/, "");
      if (t.endsWith(esc)) {
        body += t.slice(0, -1) + " ";
        continue;
      }
      body += t;
      break;
    }
    i++;
    const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(body);
    if (!m) continue;
    out.push({ op: m[1]!.toUpperCase(), rest: m[2]!.trim(), line: start + 1 });
    // a heredoc (`RUN <<EOF` ... `EOF`): its body is the instruction's input, not instructions
    for (const h of body.matchAll(/<<(-?)["']?([A-Za-z_][A-Za-z0-9_]*)["']?/g)) {
      while (i < lines.length && (h[1] ? lines[i]!.trim() : lines[i]!) !== h[2]) i++;
      i++;
    }
  }
  return out;
}

/** `["a", "b"]` (exec form) or a shell line: the words, on the instruction's line, marked as the Dockerfile's. */
function commandWords(rest: string, line: number, path: string): Word[] {
  const mark = (text: string): Word => ({ text, line, optional: false, dynamic: /\$/.test(text), file: path });
  if (rest.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === "string")) return parsed.map(mark);
    } catch {
      // not valid JSON: BuildKit runs it in the shell form, as below
    }
  }
  // the shell form is `/bin/sh -c LINE`; its words are the line's, as the shell reads them
  return lexWords(rest, line).map((w) => ({ ...w, line, file: path }));
}

const fill = (text: string, args: ReadonlyMap<string, string>) =>
  text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+]([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a, d, b) => {
    const v = args.get(a ?? b);
    if (m.includes(":+") || m.includes("+")) return v ? (d ?? "") : "";
    return v !== undefined && v !== "" ? v : (d ?? "");
  });

/** The COPY/ADD sources and destination, options (`--chown=`, `--from=`) apart. */
function copyOf(rest: string, workdir: string): { from: boolean; src: string[]; dest: string } | null {
  let words: string[];
  if (rest.startsWith("[")) {
    try {
      words = JSON.parse(rest) as string[];
    } catch {
      return null;
    }
  } else words = rest.split(/\s+/);
  const from = words.some((w) => /^--from=/.test(w));
  const paths = words.filter((w) => !w.startsWith("--"));
  if (paths.length < 2 || paths.some((p) => typeof p !== "string")) return null;
  const dest = paths.at(-1)!;
  return {
    from,
    src: paths.slice(0, -1),
    dest: posix.isAbsolute(dest) ? dest : posix.join(workdir, dest) + (dest.endsWith("/") ? "/" : ""),
  };
}

/**
 * What the Dockerfile at `path` builds: the final stage, or the stage a build names as its `target`, with what it
 * inherits from the file's earlier stages.
 */
export function parseDockerfile(text: string, path: string, target: string | null = null): DockerImage {
  const global = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions(text)) {
    const stage = stages.at(-1);
    if (ins.op === "ARG" && !stage) {
      for (const a of ins.rest.split(/\s+/)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/.exec(a);
        if (m) global.set(m[1]!, (m[2] ?? "").replace(/^["']|["']$/g, ""));
      }
    } else if (ins.op === "FROM") {
      const words = ins.rest.split(/\s+/).filter((w) => !w.startsWith("--"));
      const as = words.findIndex((w) => w.toLowerCase() === "as");
      const from = fill(words[0] ?? "", global);
      const parent = stages.find((s) => s.name !== null && s.name === from.toLowerCase());
      stages.push({
        name: as > 0 ? (words[as + 1]?.toLowerCase() ?? null) : null,
        from,
        fromLine: ins.line,
        // a stage built on another of the file's stages starts from that stage's image
        entrypoint: parent?.entrypoint ?? null,
        cmd: parent?.cmd ?? null,
        cmdSet: false,
        copies: parent ? [...parent.copies] : [],
        workdir: parent?.workdir ?? "/",
      });
    } else if (!stage) continue;
    else if (ins.op === "WORKDIR") stage.workdir = posix.resolve(stage.workdir, ins.rest.replace(/^["']|["']$/g, ""));
    else if (ins.op === "CMD") {
      stage.cmd = commandWords(ins.rest, ins.line, path);
      stage.cmdSet = true;
    } else if (ins.op === "ENTRYPOINT") {
      stage.entrypoint = commandWords(ins.rest, ins.line, path);
      // BuildKit (dockerfile2llb, dispatchEntrypoint): an ENTRYPOINT clears a CMD this stage has not set itself
      if (!stage.cmdSet) stage.cmd = null;
    } else if (ins.op === "COPY" || ins.op === "ADD") {
      const c = copyOf(ins.rest, stage.workdir);
      if (c && !c.from) for (const src of c.src) stage.copies.push({ src, dest: c.dest });
    }
  }
  const last = (target ? stages.find((s) => s.name === target.toLowerCase()) : undefined) ?? stages.at(-1);
  if (!last) return { path, base: null, entrypoint: null, cmd: null, copies: [], workdir: "/" };
  // the first stage of the chain that builds on an image from outside the file
  let root: Stage = last;
  for (let n = 0; n < stages.length; n++) {
    const parent = stages.find((s) => s !== root && s.name !== null && s.name === root.from.toLowerCase());
    if (!parent) break;
    root = parent;
  }
  const base = root.from && root.from.toLowerCase() !== "scratch" ? { text: root.from, line: root.fromLine } : null;
  return { path, base, entrypoint: last.entrypoint, cmd: last.cmd, copies: last.copies, workdir: last.workdir };
}

/**
 * The build-context path (relative to the context) of the file at `target` in the image, when a COPY put it there:
 * `COPY start.sh /app/start.sh`, `COPY start.sh /app/`, `COPY scripts/ /opt/scripts/`, `COPY . .`.
 */
export function copiedFrom(image: DockerImage, target: string): string | null {
  for (const c of [...image.copies].reverse()) {
    const dest = c.dest.replace(/\/+$/, "") || "/";
    const src = c.src.replace(/^\.\/?/, "").replace(/\/+$/, "");
    if (/[*?[]/.test(src)) continue;
    // `COPY start.sh /start.sh`, or into a directory: `COPY start.sh /app/`
    if (target === dest || target === posix.join(dest, posix.basename(src))) return src || posix.basename(target);
    // a directory copied whole: `COPY scripts/ /opt/scripts/`, `COPY . /app` (a file's name has an extension)
    const dir = c.src === "." || c.src.endsWith("/") || !/\.[A-Za-z0-9]+$/.test(src);
    if (dir && target.startsWith(dest === "/" ? "/" : dest + "/")) {
      const rest = target.slice(dest === "/" ? 1 : dest.length + 1);
      return src ? posix.join(src, rest) : rest;
    }
  }
  return null;
}
