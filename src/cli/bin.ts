// The deploy-gate bin: the process's side effects only (EPIPE, signals, exit code); main() does the rest.
import * as nodeModule from "node:module";
import { main } from "./main.js";

// Node >= 22.1 keeps V8's compiled code of the bundle on disk (the OS temp directory) for the next run; Node 20
// has no such call and compiles as before. The bin only: a library import must not change the process.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// `deploy-gate explain big.json | head`: a reader that went away is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE" && e.code !== "ERR_STREAM_DESTROYED") throw e;
});
// A deploy interrupted by Ctrl-C or a cancelled CI job still releases its host lock.
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    // loaded here, not at start: it pulls in the deploy stage, which explain never needs
    void import("../commands/shared/lifecycle.js")
      .then(({ shutdown }) => shutdown(sig, sig === "SIGINT" ? 130 : 143, (line) => process.stderr.write(`${line}\n`)))
      .then((code) => process.exit(code));
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
