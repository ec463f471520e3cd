// A script that starts no engine but stops one by pattern (`pkill -f "vllm serve"` in stop_all.sh, the kill script a
// unit runs as ExecStartPre=): the pattern matches every engine on the host whose command line holds it, other
// projects' and other users' too, and the shell running it. broad-kill is raised there as on a serve script, but only
// where the kill names an engine: a pattern kill of a project's own helpers says nothing of engines.
import { parseServeScript } from "../../domain/launch/parse.js";
import { programOf, programWords } from "../../domain/launch/words.js";
import type { Finding } from "../../domain/report/finding.js";
import { checkTraps } from "./traps/check-traps.js";
import type { PreflightContext } from "./targets.js";

const ENGINE_WORD = /vllm|sglang|llama[-_.]?(server|cpp)/i;
const SHELL_FILE = /\.(sh|bash|command)$/;

/** The lines of the commands that kill by a pattern naming an engine (`pkill -f`, `killall`). */
export function engineKillLines(text: string): Set<number> {
  const out = new Set<number>();
  for (const c of parseServeScript(text, { heredocs: false }).commands) {
    const prog = programOf(c);
    if (prog !== "pkill" && prog !== "killall") continue;
    // (`[v]llm`: the bracket keeps the pattern from matching the pkill itself)
    const named = (t: string) => ENGINE_WORD.test(t.replace(/\[(\w)\]/g, "$1"));
    if (programWords(c.words).some((w) => named(w.resolved ?? w.text))) out.add(c.line);
  }
  return out;
}

/** The quiet shell scripts (they start no engine) that kill engines by pattern: broad-kill at each such kill. */
export async function checkEngineKills(
  ctx: PreflightContext,
  read: (path: string) => Promise<string | null>,
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const file of ctx.quietFiles ?? []) {
    if (!SHELL_FILE.test(file)) continue;
    const text = await read(file);
    if (text === null || !/\b(pkill|killall)\b/.test(text)) continue;
    const lines = engineKillLines(text);
    if (lines.size === 0) continue;
    const script = parseServeScript(text, { heredocs: false });
    const hits = checkTraps({ script, scriptPath: file, kind: "script", unit: null }, {}).filter(
      (f) => f.data?.rule === "broad-kill" && f.line !== undefined && lines.has(f.line),
    );
    out.push(...hits.map((f) => ({ ...f, summary: `${file} stops engines by pattern: ${f.summary}` })));
  }
  return out;
}
