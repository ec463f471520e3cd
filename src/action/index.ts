// The Action's entry: the process's side effects only (signals, the call to runAction).
import { shutdown } from "../commands/shared/lifecycle.js";
import { runAction } from "./run.js";

if (process.env.GITHUB_ACTIONS === "true" && !process.env.VITEST) {
  // A cancelled job sends SIGINT/SIGTERM: release the host lock before going (the step fails: exit 1).
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(
      sig,
      () => void shutdown(sig, 1, (line) => process.stderr.write(`${line}\n`)).then((code) => process.exit(code)),
    );
  }
  void runAction();
}
