// preflight.bash-syntax: the real `bash -n` on every serve script; its message and line in the finding.
import { shellQuote } from "../host/quote.js";
import { runLocal } from "../local/run.js";
import { fail, pass, type Finding } from "../report/finding.js";

const CHECK = "preflight.bash-syntax";

/** `x.sh: line 12: syntax error near unexpected token `fi'` -> line 12 and the message. */
export function parseBashError(stderr: string): { line: number | null; message: string } {
  const first = stderr.split("\n").find((l) => /line \d+:/.test(l)) ?? stderr.split("\n")[0] ?? "";
  const m = /line (\d+): (.*)$/.exec(first);
  return m ? { line: Number(m[1]), message: m[2]!.trim() } : { line: null, message: first.trim() };
}

/** Syntax-check script text (read from stdin, so a script at any ref can be checked without a temp file). */
export async function bashSyntax(text: string, file: string, label = file): Promise<Finding> {
  const r = await runLocal("bash", ["-n"], { input: text, timeoutMs: 10_000 });
  if (r.spawnError) return fail(CHECK, `bash could not be started (${r.spawnError.code})`, { file, fix: "install bash (apt-get install bash) and retry" });
  if (r.code === 0) return pass(CHECK, `${label}: bash -n passes`, { file });
  const { line, message } = parseBashError(r.stderr);
  const lines = text.split("\n");
  const evidence = [r.stderr.trim().replace(/^bash: /gm, `${file}: `)];
  if (line) {
    for (let n = Math.max(1, line - 2); n <= Math.min(lines.length, line); n++) evidence.push(`${String(n).padStart(5)} | ${lines[n - 1]}`);
  }
  return fail(CHECK, `${label}: bash -n fails${line ? ` at line ${line}` : ""}: ${message}`, {
    file,
    ...(line ? { line } : {}),
    evidence,
    fix: `fix the syntax at ${file}${line ? `:${line}` : ""} (often an unclosed quote, a missing \`fi\`/\`done\`, or a \`\\\` continuation followed by a space or comment), then run \`bash -n ${shellQuote(file)}\``,
    data: { message },
  });
}
