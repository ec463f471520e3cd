// The deploy-gate bin: the process's side effects only (EPIPE, signals, exit code); main() does the rest.
import { shutdown } from "../commands/shared/lifecycle.js";
import { main } from "./main.js";

// `deploy-gate explain big.json | head`: a reader that went away is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE" && e.code !== "ERR_STREAM_DESTROYED") throw e;
});
// A deploy interrupted by Ctrl-C or a cancelled CI job still releases its host lock.
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    void shutdown(sig, sig === "SIGINT" ? 130 : 143, (line) => process.stderr.write(`${line}\n`)).then((code) =>
      process.exit(code),
    );
  });
}
main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: Boolean(process.stdout.isTTY),
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
