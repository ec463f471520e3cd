// `deploy-gate` / `npx deploy-gate`: arguments -> options -> the verb's handler -> exit code. No side
// effects here (bin.ts has them), so tests call main() with their own io.
import type { Handler } from "../commands/index.js";
import { UsageError, type Command, type Io } from "../commands/options.js";
import { sanitizeValue } from "../domain/report/sanitize.js";
import { VERSION } from "../lib/version.js";
import { traceOn } from "../ports/trace.js";
import { commandHelp, parseCli, SHORT_USAGE, USAGE } from "./args.js";

export type { Io };

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const opts = parseCli(argv, io.cwd);
    if (opts === "help") return (io.out(USAGE + "\n"), 0);
    if (opts === "usage") return (io.out(SHORT_USAGE + "\n"), 0);
    if (opts === "version") return (io.out(`deploy-gate ${VERSION}\n`), 0);
    if ("help" in opts) return (io.out(commandHelp(opts.help) + "\n"), 0);
    if (opts.verbose) traceOn();
    return await (
      await handlerOf(opts.command)
    )(opts, io);
  } catch (e) {
    // Messages can quote host or repository text: redacted and control-free like every report. The config's
    // errors are loaded here (they pull in the YAML parser, which explain never needs); whoever threw one has
    // loaded the module already, so the class is the same.
    const { ConfigError } = await import("../domain/config/errors.js");
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

/**
 * The verb's code, loaded when the verb runs: explain needs ~0.2 MB of the 2.5 MB bundle, and V8 compiling
 * the rest cost more than decoding a 5 MB dump (docs/performance.md).
 */
async function handlerOf(command: Command): Promise<Handler> {
  if (command === "explain") return (await import("../commands/explain/explain.js")).explainCommand;
  const [{ HANDLERS }, { reportCommand }] = await Promise.all([
    import("../commands/index.js"),
    import("./report-output.js"),
  ]);
  return HANDLERS[command] ?? reportCommand;
}
