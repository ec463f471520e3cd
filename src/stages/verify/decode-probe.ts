// The I/O half of verify.decode: one streamed completion per declared depth, one after another, over
// the route the other HTTP checks chose. checkDecode() judges them.
import type { Endpoint } from "../../domain/config/schema.js";
import { fail, skip, type Finding } from "../../domain/report/finding.js";
import { checkDecode, CHECK, fits } from "./decode.js";
import { decodeRequest } from "./decode-prompt.js";
import type { HttpProbes } from "./http-checks.js";
import type { StreamResult } from "../../ports/http/sse.js";

/**
 * maxModelLen: the context the endpoint serves (live argv, else its boot log); a depth that does not fit is not sent.
 */
export async function measureDecode(
  ep: Endpoint,
  h: HttpProbes | null | Error,
  timeoutMs: number,
  progress: (msg: string) => void = () => {},
  maxModelLen: number | null = null,
): Promise<Finding> {
  const c = ep.contracts.decode;
  if (!c)
    return skip(CHECK, "no contracts.decode declared", {
      fix: "declare contracts.decode: { minTokPerS: N } (one floor, or one per depth) to have decode speed measured",
    });
  if (!ep.url || !ep.model)
    return skip(CHECK, `no \`${ep.url ? "model" : "url"}\` in the endpoint config`, {
      fix: "add url: and model: to the endpoint in deploy-gate.yml",
    });
  if (h instanceof Error || h === null)
    return fail(CHECK, `decode could not be measured: ${h instanceof Error ? h.message : "no route"}`, {
      fix: "see the message; rerun deploy-gate verify",
    });
  if (h.blocked)
    return fail(CHECK, `decode not measured: ${h.blocked}`, {
      fix: "see verify.liveness: once the engine answers a completion, rerun deploy-gate verify",
    });
  const results: (StreamResult | null)[] = [];
  for (const depth of c.depths) {
    if (!fits(depth, c.maxTokens, maxModelLen)) {
      results.push(null);
      continue;
    }
    progress(`verify: decode at ${depth} prompt tokens`);
    results.push(
      await h.routed.route.stream("/v1/chat/completions", decodeRequest(ep.model, depth, c.maxTokens), timeoutMs),
    );
  }
  const f = checkDecode(results, c, h.routed.route.via, maxModelLen);
  return h.routed.route.fromPeer
    ? f
    : { ...f, evidence: [...(f.evidence ?? []), `not from a peer: measured ${h.routed.route.via}`] };
}
