// preflight.shellcheck: shellcheck's findings where it is installed (warn level, never fails the job).
import { runLocal, type LocalResult } from "../../ports/local/run-local.js";
import { pass, skip, warn, type Finding } from "../../domain/report/finding.js";

const CHECK = "preflight.shellcheck";

interface ShellcheckComment {
  line: number;
  level: string;
  code: number;
  message: string;
}

export function shellcheckFindings(json: string, file: string): Finding[] {
  const parsed = JSON.parse(json) as { comments?: ShellcheckComment[] };
  return (parsed.comments ?? [])
    .filter((c) => c.level === "error" || c.level === "warning")
    .map((c) =>
      warn(CHECK, `SC${c.code} ${c.message}`, {
        file,
        line: c.line,
        fix: `see https://www.shellcheck.net/wiki/SC${c.code}`,
        data: { code: c.code, level: c.level },
      }),
    );
}

export async function shellcheck(absPath: string, file: string, cwd: string): Promise<Finding[]> {
  const r = await runLocal("shellcheck", ["-f", "json1", "-S", "warning", "-x", absPath], { cwd, timeoutMs: 30_000 });
  return shellcheckResult(r, file);
}

/** shellcheck's answer for one file as findings (json1 on stdout; exit 1 means it found something). */
export function shellcheckResult(r: Pick<LocalResult, "code" | "stdout" | "stderr" | "spawnError">, file: string) {
  if (r.spawnError)
    return [
      skip(CHECK, "shellcheck is not installed", {
        file,
        fix: "install it (apt-get install shellcheck) to get its warnings",
      }),
    ];
  if (r.code !== 0 && r.code !== 1)
    return [skip(CHECK, `shellcheck could not check ${file}: ${r.stderr.trim()}`, { file })];
  const found = shellcheckFindings(r.stdout || "{}", file);
  return found.length ? found : [pass(CHECK, `${file}: no shellcheck warnings`, { file })];
}

export async function shellcheckAvailable(): Promise<boolean> {
  const r = await runLocal("shellcheck", ["--version"], { timeoutMs: 10_000 });
  return !r.spawnError && r.code === 0;
}
