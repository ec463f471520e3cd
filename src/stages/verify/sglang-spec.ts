// SGLang's speculative decoding read over HTTP. Its scheduler sets the gauges `sglang:spec_accept_length`
// ((accepted draft tokens + 1 per batch) / decode batches) and `sglang:spec_accept_rate` (accepted /
// (batches x --speculative-num-draft-tokens)) only at a decode log, every --decode-log-interval decode batches
// (default 40), and to 0 when no algorithm runs (sgl-project/sglang python/sglang/srt/managers/
// scheduler_metrics_mixin.py @01bb3c8, log_decode_stats; the gauges in python/sglang/srt/metrics/collector.py
// @00ae9c1). So the probe must decode enough batches alone, without stopping at EOS, before /metrics is read.
import type { HttpResult } from "../../ports/http/client.js";
import { parsePrometheus } from "../../domain/engine/served-metrics.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { CHECK, specProbeRequest } from "./spec-decode.js";

const DEFAULT_INTERVAL = 40;
/** tokens a batch can accept at most when the flags do not say (the draft tokens of SGLang's larger presets) */
const DEFAULT_DRAFT_TOKENS = 8;
const MAX_PROBE_TOKENS = 2048;

export interface SglangSpecPlan {
  algorithm: string;
  interval: number;
  draftTokens: number;
}

/** From the declared flags (contracts.flags): the algorithm, the log interval and the most a batch can accept. */
export function sglangSpecPlan(flag: (name: string) => string | null): SglangSpecPlan | null {
  const algorithm = flag("--speculative-algorithm");
  if (algorithm === null) return null;
  const num = (name: string) => {
    const v = Number(flag(name));
    return Number.isInteger(v) && v > 0 ? v : null;
  };
  const steps = num("--speculative-num-steps");
  return {
    algorithm,
    interval: num("--decode-log-interval") ?? DEFAULT_INTERVAL,
    draftTokens: num("--speculative-num-draft-tokens") ?? (steps ? steps + 1 : DEFAULT_DRAFT_TOKENS),
  };
}

/** One decode log's worth of batches even when every draft is accepted; ignore_eos so the model cannot stop early. */
export function sglangSpecProbe(model: string, plan: SglangSpecPlan): Record<string, unknown> {
  return {
    ...specProbeRequest(model),
    max_tokens: Math.min(MAX_PROBE_TOKENS, plan.interval * plan.draftTokens),
    ignore_eos: true,
  };
}

export function sglangSpec(plan: SglangSpecPlan, metrics: HttpResult | null): Finding {
  const samples = metrics?.status === 200 ? parsePrometheus(metrics.body) : [];
  const lengths = samples.filter((s) => s.name === "sglang:spec_accept_length");
  const line = (name: string) =>
    metrics?.body
      .split("\n")
      .filter((l) => l.startsWith(name))
      .map((l) => `/metrics: ${l.trim()}`) ?? [];
  const evidence = [
    `--speculative-algorithm ${plan.algorithm}`,
    `probe: ${Math.min(MAX_PROBE_TOKENS, plan.interval * plan.draftTokens)} tokens (decode log every ${plan.interval} batches)`,
    ...line("sglang:spec_accept_length"),
    ...line("sglang:spec_accept_rate"),
  ];
  if (!lengths.length)
    return fail(CHECK, "speculative decoding is declared but /metrics has no sglang:spec_accept_length", {
      evidence,
      fix: "start SGLang with --enable-metrics (its /metrics is off without it)",
    });
  // data parallel: one scheduler per rank; the probe reached one of them
  const len = Math.max(...lengths.map((s) => s.value));
  if (len > 1)
    return pass(CHECK, `speculative decoding engaged (metrics): mean accept length ${len.toFixed(2)}`, { evidence });
  return fail(
    CHECK,
    len === 0
      ? "speculative decoding is declared but the engine reports none (sglang:spec_accept_length 0 after the probe)"
      : "speculative decoding runs but accepts no draft (mean accept length 1)",
    {
      evidence,
      fix:
        len === 0
          ? "check the launch command has --speculative-algorithm and the draft model loads (the engine's log names it); if the engine logs decode stats less often, declare its --decode-log-interval in contracts.flags"
          : "the draft model does not match the target (its vocabulary or revision): use the draft trained for this model, or drop speculative decoding",
    },
  );
}
