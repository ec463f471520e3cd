// `deploy-gate` / `npx deploy-gate`: arguments -> options -> the verb's handler -> exit code. No side
// effects here (bin.ts has them), so tests call main() with their own io.
import { HANDLERS } from "../commands/index.js";
import { UsageError, type Io } from "../commands/options.js";
import { ConfigError } from "../domain/config/errors.js";
import { sanitizeValue } from "../domain/report/sanitize.js";
import { VERSION } from "../lib/version.js";
import { traceOn } from "../ports/trace.js";
import { commandHelp, parseCli, SHORT_USAGE, USAGE } from "./args.js";
import { reportCommand } from "./report-output.js";

export type { Io };

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const opts = parseCli(argv, io.cwd);
    if (opts === "help") return (io.out(USAGE + "\n"), 0);
    if (opts === "usage") return (io.out(SHORT_USAGE + "\n"), 0);
    if (opts === "version") return (io.out(`deploy-gate ${VERSION}\n`), 0);
    if ("help" in opts) return (io.out(commandHelp(opts.help) + "\n"), 0);
    if (opts.verbose) traceOn();
    return await (HANDLERS[opts.command] ?? reportCommand)(opts, io);
  } catch (e) {
    // Messages can quote host or repository text: redacted and control-free like every report.
    if (e instanceof ConfigError) {
      io.err(`deploy-gate: invalid config\n${sanitizeValue(e.render(io.cwd))}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`deploy-gate: ${sanitizeValue(e.message)}\n`);
      return 2;
    }
    io.err(
      `deploy-gate: internal error: ${sanitizeValue((e as Error).stack ?? String(e))}\nplease report it with the command you ran\n`,
    );
    return 2;
  }
}
