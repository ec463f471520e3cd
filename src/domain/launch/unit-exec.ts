// A unit's Exec*= lines read as one-line (or `\`-continued) scripts, each word keeping its real line in the
// unit file, so a `podman run` or `vllm serve` in ExecStart= is read like one in a serve script.
import type { ServeScript } from "./model.js";
import { parseServeScript } from "./parse.js";
import { execCommands, type UnitFile } from "./unit.js";

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
