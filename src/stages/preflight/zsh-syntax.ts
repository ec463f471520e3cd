// preflight.bash-syntax for a zsh script (`#!/usr/bin/env zsh`, `*.zsh`): bash's grammar is not zsh's, so bash -n
// and shellcheck (which has no zsh mode) would report noise; the real `zsh -n` checks it when zsh is installed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shellQuote } from "../../lib/shell-quote.js";
import { runLocal } from "../../ports/local/run-local.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";

const CHECK = "preflight.bash-syntax";

/** A script zsh runs: its shebang names zsh, or (no shebang) its name ends in .zsh. */
export function isZsh(file: string, text: string): boolean {
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!shebang) return /\.zsh$/.test(file);
  const program = /(^|\/)env$/.test(shebang[1]!) ? (shebang[2] ?? "") : shebang[1]!;
  return /(^|\/)zsh$/.test(program);
}

/** `FILE:12: parse error near `fi'` -> line 12 and the message. */
export function parseZshError(stderr: string, ran: string): { line: number | null; message: string } {
  const first = stderr.split("\n").find((l) => l.startsWith(`${ran}:`)) ?? stderr.split("\n")[0] ?? "";
  const m = /:(\d+): (.*)$/.exec(first);
  return m ? { line: Number(m[1]), message: m[2]!.trim() } : { line: null, message: first.trim() };
}

export async function zshSyntax(text: string, file: string, label = file): Promise<Finding> {
  const dir = mkdtempSync(join(tmpdir(), "dg-zsh-n-"));
  const tmp = join(dir, "script");
  let r: Awaited<ReturnType<typeof runLocal>>;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    r = await runLocal("zsh", ["-n", tmp], { timeoutMs: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (r.spawnError)
    return skip(CHECK, `${label} is a zsh script and zsh is not installed: its syntax is not checked`, {
      file,
      fix: "install zsh (apt-get install zsh) to check it with zsh -n",
    });
  if (r.timedOut) return fail(CHECK, `${label}: zsh -n did not finish within 60 s`, { file });
  if (r.code === 0)
    return pass(CHECK, `${label}: zsh -n passes (a zsh script: bash -n and shellcheck do not apply)`, { file });
  const { line, message } = parseZshError(r.stderr, tmp);
  return fail(CHECK, `${label}: zsh -n fails${line ? ` at line ${line}` : ""}: ${message}`, {
    file,
    ...(line ? { line } : {}),
    evidence: [r.stderr.trim().split(tmp).join(file)],
    fix: `fix the syntax at ${file}${line ? `:${line}` : ""}, then run \`zsh -n ${shellQuote(file)}\``,
    data: { message, shell: "zsh" },
  });
}
