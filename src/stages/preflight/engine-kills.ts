// A script that starts no engine but stops things by pattern (`pkill -f "vllm serve"` in stop_all.sh, the kill
// script a unit runs as ExecStartPre=, `pkill -f uvicorn` in a GPU clean-up script): the pattern matches every
// process on the host whose command line holds it, other projects' engines and the shell running it included.
// broad-kill is raised there as on a serve script. Only in a script of an engine's repository: discovery's quiet
// files, which name an engine but start none.
import { parseServeScript } from "../../domain/launch/parse.js";
import type { Finding } from "../../domain/report/finding.js";
import { checkTraps } from "./traps/check-traps.js";
import type { PreflightContext } from "./targets.js";

const SHELL_FILE = /\.(sh|bash|command)$/;

/** The quiet shell scripts (they start no engine) that kill by pattern: broad-kill at each such kill. */
export async function checkEngineKills(
  ctx: PreflightContext,
  read: (path: string) => Promise<string | null>,
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const file of ctx.quietFiles ?? []) {
    if (!SHELL_FILE.test(file)) continue;
    const text = await read(file);
    if (text === null || !/\b(pkill|killall)\b/.test(text)) continue;
    const script = parseServeScript(text, { heredocs: false });
    const hits = checkTraps({ script, scriptPath: file, kind: "script", unit: null }, {}).filter(
      (f) => f.data?.rule === "broad-kill" && f.line !== undefined,
    );
    out.push(...hits.map((f) => ({ ...f, summary: `${file}: ${f.summary}` })));
  }
  return out;
}
