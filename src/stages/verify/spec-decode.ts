// verify.spec-decode: where the live argv declares --speculative-config, engagement proven from
// /metrics (vllm:spec_decode_*) or the SpecDecoding metrics log line, with the acceptance figures.
import { readSpecDecode, readSpecMetrics, type SpecDecode } from "../../domain/engine/vllm/specdecode.js";
import type { HttpResult } from "../../ports/http/client.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";

export const CHECK = "verify.spec-decode";

const figures = (s: SpecDecode) =>
  [
    `mean acceptance length ${s.meanAcceptanceLength?.toFixed(2) ?? "n/a"}`,
    `acceptance rate ${s.acceptanceRate === null ? "n/a" : `${(s.acceptanceRate * 100).toFixed(1)}%`}`,
    ...(s.perPosition.length ? [`per position ${s.perPosition.map((p) => p.toFixed(3)).join("/")}`] : []),
  ].join(", ");

/** A short temp-0 completion to make the engine draft when verify sends no other (a fresh engine's
 *  spec-decode counters are all zero until it serves a request). */
export function specProbeRequest(model: string): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: 64,
    messages: [{ role: "user", content: "Name three rivers in Europe and one city on each." }],
  };
}

/** The completions this verify sent before reading /metrics: none answered 200 means nothing could draft. */
export interface Traffic {
  ok: boolean;
  failure: string | null;
}

/** Of the chat results sent (null: not sent), whether one answered 200, else the first failure. */
export function trafficOf(results: readonly (HttpResult | null)[]): Traffic | null {
  const sent = results.filter((r): r is HttpResult => r !== null);
  if (sent.length === 0) return null;
  if (sent.some((r) => r.status === 200)) return { ok: true, failure: null };
  const r = sent[0]!;
  return { ok: false, failure: r.status === null ? (r.error ?? "no answer") : `HTTP ${r.status}` };
}

export function checkSpecDecode(
  speculativeConfig: string | null,
  metrics: HttpResult | null,
  journal: readonly string[],
  traffic: Traffic | null = null,
): Finding {
  if (speculativeConfig === null) return skip(CHECK, "no --speculative-config in the live argv");
  const evidence = [`--speculative-config ${speculativeConfig}`];
  const fromMetrics = metrics?.status === 200 ? readSpecMetrics(metrics.body) : null;
  let fromLog: SpecDecode | null = null;
  let logLine: string | null = null;
  for (const l of journal) {
    const s = readSpecDecode(l);
    if (s) {
      fromLog = s;
      logLine = l.trim();
    }
  }
  evidence.push(
    metrics === null
      ? "/metrics not read"
      : metrics.status === 200
        ? `/metrics: ${fromMetrics ? "vllm:spec_decode_* present" : "no vllm:spec_decode_* sample"}`
        : `/metrics: ${metrics.status === null ? metrics.error : `HTTP ${metrics.status}`}`,
  );
  if (logLine) evidence.push(`log: ${logLine.slice(0, 300)}`);
  const engaged = fromMetrics && fromMetrics.meanAcceptanceLength !== null ? fromMetrics : fromLog;
  const data = {
    speculativeConfig,
    metrics: fromMetrics,
    log: fromLog,
    source: engaged === fromMetrics && engaged ? "metrics" : engaged ? "log" : null,
  };
  if (!engaged && traffic && !traffic.ok) {
    return fail(
      CHECK,
      `speculative decoding not proven: no completion succeeded in this verify (${traffic.failure}), so the engine had nothing to draft`,
      {
        evidence: [...evidence, `every completion sent failed: ${traffic.failure}`],
        data,
        fix: "fix what refused the completions (see verify.models, verify.thinking, verify.tools above), then rerun deploy-gate verify",
      },
    );
  }
  if (!engaged) {
    return fail(CHECK, "speculative decoding is declared but no drafts were seen: MTP/spec decode is off", {
      evidence,
      data,
      fix: "check the draft method loads (the boot log names it) and --speculative-config is valid JSON; zero vllm:spec_decode_ samples after a completion means no drafting",
    });
  }
  return pass(CHECK, `speculative decoding engaged (${data.source}): ${figures(engaged)}`, { evidence, data });
}
