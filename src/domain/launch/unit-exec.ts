// A unit's Exec*= lines read as one-line (or `\`-continued) scripts, each word keeping its real line in the
// unit file, so a `podman run` or `vllm serve` in ExecStart= is read like one in a serve script.
import type { ServeScript, Word } from "./model.js";
import { parseServeScript } from "./parse.js";
import { execCommands, parseUnit, type UnitFile } from "./unit.js";
import { basename, programWords } from "./words.js";

const EXEC_KEYS = ["ExecStartPre", "ExecStart", "ExecStartPost", "ExecStop", "ExecStopPost", "ExecReload"];

export interface ExecScript {
  key: string;
  line: number;
  script: ServeScript;
}

/**
 * The text of an Exec*= entry from its raw lines: `Key=` and systemd's `-@:+!` prefixes dropped, continuations kept.
 */
function execText(lines: readonly string[], line: number, endLine: number): string {
  const raw = lines.slice(line - 1, endLine).join("\n");
  return raw.slice(raw.indexOf("=") + 1).replace(/^\s*[-@:+!]+/, "");
}

export function execScripts(unit: UnitFile, lines: readonly string[], section = "Service"): ExecScript[] {
  return EXEC_KEYS.flatMap((key) => execCommands(unit, key, section))
    .sort((a, b) => a.line - b.line)
    .map((e) => ({
      key: e.key,
      line: e.line,
      script: parseServeScript(execText(lines, e.line, e.endLine), { firstLine: e.line, runtime: "systemd" }),
    }));
}

/**
 * The words a unit's `ExecStart=` hands the serve script after its path (`ExecStart=/opt/serve.sh big.gguf
 * --no-mmap`): the script's "$@", each at the unit's line and marked with the unit's file; null when it hands none.
 */
export function execStartArgs(unitText: string, unitPath: string, scriptPath: string): Word[] | null {
  const lines = unitText.split("\n");
  const name = basename(scriptPath);
  for (const e of execScripts(parseUnit(unitText), lines).filter((x) => x.key === "ExecStart")) {
    for (const c of e.script.commands) {
      const w = programWords(c.words);
      const i = w.findIndex((x) => basename(x.text.replace(/["']/g, "")) === name);
      if (i >= 0 && i < w.length - 1) return w.slice(i + 1).map((x) => ({ ...x, file: unitPath }));
    }
  }
  return null;
}
