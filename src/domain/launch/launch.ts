// How a file launches an engine, whatever the file is: a serve script, a systemd unit (ExecStart= runs the
// engine directly or through podman/docker run) or a podman quadlet (.container). Each parses into the
// same ServeScript model (commands, container runs, engine), so every check reads one shape. Pure.
import type { ServeScript } from "./model.js";
import { parseServeScript, runEngine } from "./parse.js";
import { quadletRun } from "./quadlet.js";
import { parseUnit, type UnitFile } from "./unit.js";
import { NestingTooDeep } from "./lexer.js";
import { execScripts } from "./unit-exec.js";

export type FileKind = "script" | "unit" | "quadlet";

/** By name first (.container, .service...), then by content ([Container] / [Service] sections). */
export function fileKind(path: string, text: string): FileKind {
  if (/\.container$/.test(path)) return "quadlet";
  if (/\.(service|socket|timer|target|mount|path)$/.test(path))
    return /^\s*\[Container\]\s*$/m.test(text) ? "quadlet" : "unit";
  if (/\.(sh|bash|zsh)$/.test(path) || /^#!/.test(text)) return "script";
  if (/^\s*\[Container\]\s*$/m.test(text)) return "quadlet";
  if (/^\s*\[Service\]\s*$/m.test(text) && /^\s*ExecStart=/m.test(text)) return "unit";
  return "script";
}

export function parseLaunch(kind: FileKind, text: string): ServeScript {
  try {
    if (kind === "script") return parseServeScript(text);
    const unit = parseUnit(text);
    return kind === "unit" ? unitLaunch(unit, text) : quadletLaunch(unit, text);
  } catch (e) {
    // one file nested past the bound is reported as unread; the run goes on with the others
    if (e instanceof NestingTooDeep) return { ...empty(text), unreadable: e.message };
    throw e;
  }
}

const empty = (text: string): ServeScript => ({
  text,
  lines: text.split("\n"),
  commands: [],
  assignments: [],
  podmanRuns: [],
  engine: null,
});

/** A unit: the commands of its Exec*= lines; the engine is the one its ExecStart= starts. */
function unitLaunch(unit: UnitFile, text: string): ServeScript {
  const out = empty(text);
  for (const e of execScripts(unit, out.lines)) {
    out.commands.push(...e.script.commands);
    out.podmanRuns.push(...e.script.podmanRuns);
    if (e.key === "ExecStart" && e.script.engine && !out.engine) out.engine = e.script.engine;
  }
  return out;
}

/** A quadlet: the podman run it generates, plus the commands of its [Service] Exec*= lines. */
function quadletLaunch(unit: UnitFile, text: string): ServeScript {
  const out = unitLaunch(unit, text);
  const run = quadletRun(unit, out.lines);
  if (run) {
    out.podmanRuns.unshift(run);
    out.engine = runEngine(run, text);
  }
  return out;
}
