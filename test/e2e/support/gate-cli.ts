// e2e helper: the CLI's main() in a repository, with --json; the report parsed, progress (stderr) kept.
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";

export async function gate(cwd: string, ...argv: string[]): Promise<{ code: number; report: Report; err: string }> {
  let out = "";
  let err = "";
  const code = await main([...argv, "--json"], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd,
  });
  if (code === 2) throw new Error(`usage/config error: ${err}`);
  return { code, report: JSON.parse(out) as Report, err };
}
