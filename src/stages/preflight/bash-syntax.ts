// preflight.bash-syntax: the real `bash -n` on every serve script; its message and line in the finding.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shellQuote } from "../../lib/shell-quote.js";
import { runLocal, type LocalResult } from "../../ports/local/run-local.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";

const CHECK = "preflight.bash-syntax";

/** `x.sh: line 12: syntax error near unexpected token `fi'` -> line 12 and the message. */
export function parseBashError(stderr: string): { line: number | null; message: string } {
  const first = stderr.split("\n").find((l) => /line \d+:/.test(l)) ?? stderr.split("\n")[0] ?? "";
  const m = /line (\d+): (.*)$/.exec(first);
  return m ? { line: Number(m[1]), message: m[2]!.trim() } : { line: null, message: first.trim() };
}

/**
 * Syntax-check script text (any ref's). From a temp file, not stdin: bash reads a piped script one byte
 * per read(2), which takes seconds for a large one (a 20 MB script: 5 s, against 0.2 s from a file).
 */
export async function bashSyntax(text: string, file: string, label = file): Promise<Finding> {
  const dir = mkdtempSync(join(tmpdir(), "dg-bash-n-"));
  const tmp = join(dir, "script");
  let r: Awaited<ReturnType<typeof runLocal>>;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    r = await runLocal("bash", ["-n", tmp], { timeoutMs: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return syntaxFinding(text, file, label, r, tmp);
}

/** What bash -n said of `ran` (the file it read: a temp copy, or the work tree's file itself), as the finding. */
export function syntaxFinding(
  text: string,
  file: string,
  label: string,
  r: Pick<LocalResult, "code" | "stderr" | "timedOut" | "spawnError">,
  ran: string,
): Finding {
  if (r.spawnError)
    return fail(CHECK, `bash could not be started (${r.spawnError.code})`, {
      file,
      fix: "install bash (apt-get install bash) and retry",
    });
  if (r.timedOut)
    return fail(CHECK, `${label}: bash -n did not finish within 60 s`, {
      file,
      fix: `run \`bash -n ${shellQuote(file)}\` yourself to see why it takes so long`,
    });
  if (r.code === 0) return crlf(text, file, label) ?? pass(CHECK, `${label}: bash -n passes`, { file });
  const stderr = r.stderr.split(ran).join(file);
  const { line, message } = parseBashError(stderr);
  const lines = text.split("\n");
  const evidence = [stderr.trim().replace(/^bash: /gm, `${file}: `)];
  if (line) {
    for (let n = Math.max(1, line - 2); n <= Math.min(lines.length, line); n++)
      evidence.push(`${String(n).padStart(5)} | ${lines[n - 1]}`);
  }
  // (`syntax error near unexpected token $'do\r'`: the CRLF line ends are the cause, not the code)
  const cr = crlf(text, file, label);
  return fail(CHECK, `${label}: bash -n fails${line ? ` at line ${line}` : ""}: ${message}${cr ? CR_CAUSE : ""}`, {
    file,
    ...(line ? { line } : {}),
    evidence,
    fix: cr
      ? cr.fix!
      : `fix the syntax at ${file}${line ? `:${line}` : ""} (often an unclosed quote, a missing \`fi\`/\`done\`, or a \`\\\` continuation followed by a space or comment), then run \`bash -n ${shellQuote(file)}\``,
    data: { message, ...(cr ? cr.data : {}) },
  });
}

const CR_CAUSE = " (its lines end in CRLF: bash reads each \\r as part of the line's last word)";

/**
 * CRLF line endings pass `bash -n` but not a run: bash reads the `\r` as part of each last word
 * (`set -o pipefail\r`: invalid option name; `exec vllm serve ... \r`). Saved by a Windows editor or git's autocrlf.
 */
function crlf(text: string, file: string, label: string): Finding | null {
  const at = text.indexOf("\r\n");
  if (at < 0) return null;
  const line = text.slice(0, at).split("\n").length;
  const count = text.split("\r\n").length - 1;
  return fail(
    CHECK,
    `${label}: ${count} line(s) end in CRLF (first at line ${line}): bash takes the \\r as part of the last word of each line, so the script fails when it runs`,
    {
      file,
      line,
      fix: `convert ${file} to LF line endings (sed -i 's/\\r$//' ${shellQuote(file)}), and keep git from converting it back: add \`*.sh text eol=lf\` to .gitattributes`,
      data: { crlfLines: count },
    },
  );
}
