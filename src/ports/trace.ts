// DEPLOY_GATE_TRACE=1 (the action sets it for RUNNER_DEBUG=1): every command the gate runs, locally or over
// SSH, timed on stderr. Once here so both ports write the same line.
import { sanitizeLine } from "../domain/report/sanitize.js";

let verbose = false;

/** -v/--verbose: the CLI turns the trace on for this process (tests turn it off again). */
export function traceOn(on = true): void {
  verbose = on;
}

/** Read at each command, not once: the action turns it on after the modules load. */
export const tracing = (): boolean => verbose || Boolean(process.env.DEPLOY_GATE_TRACE);

/** `[trace] Nms WHAT`, N since t0; sanitized: a command carries repository text onto the runner's log. */
export function trace(t0: number, what: string): void {
  process.stderr.write(`${sanitizeLine(`[trace] ${(performance.now() - t0).toFixed(0)}ms ${what}`)}\n`);
}
