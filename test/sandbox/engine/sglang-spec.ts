// SGLang's speculative-decoding gauges as its scheduler sets them (sgl-project/sglang
// python/sglang/srt/managers/scheduler_metrics_mixin.py @01bb3c8, log_decode_stats; names and help from
// python/sglang/srt/metrics/collector.py @00ae9c1): every --decode-log-interval decode batches (default 40)
// `sglang:spec_accept_length` = (accepted draft tokens + 1 per batch) / batches and `sglang:spec_accept_rate` =
// accepted / (batches x --speculative-num-draft-tokens); with no algorithm both are 0. Between logs the gauges
// keep their last value (multiprocess_mode "mostrecent"). The double's model: a completion generates
// max_tokens with ignore_eos, else stops at FAKE_EOS_TOKENS (32), and every batch accepts FAKE_SPEC_ACCEPT_LEN
// tokens (default 2.6). Pure.

export interface SpecPlan {
  algorithm: string | null;
  /** --speculative-num-draft-tokens, else --speculative-num-steps + 1 (SGLang's own fallback) */
  draftTokens: number;
  decodeLogInterval: number;
  acceptLen: number;
  eosTokens: number;
}

export interface SpecState {
  /** decode batches since the server started (SGLang's forward_ct_decode) */
  batches: number;
  /** since the last log: tokens accepted (+1 per batch) and batches */
  accepted: number;
  forward: number;
  /** the gauges; null until the scheduler logged once (the first request's prefill log) */
  acceptLength: number | null;
  acceptRate: number | null;
}

export const specState = (): SpecState => ({
  batches: 0,
  accepted: 0,
  forward: 0,
  acceptLength: null,
  acceptRate: null,
});

/** One answered completion: its decode batches, and a decode log at each interval. */
export function specServe(p: SpecPlan, s: SpecState, body: string): void {
  let req: { max_tokens?: unknown; ignore_eos?: unknown } = {};
  try {
    req = JSON.parse(body) as typeof req;
  } catch {
    return;
  }
  const max = typeof req.max_tokens === "number" ? req.max_tokens : 128;
  const tokens = req.ignore_eos === true ? max : Math.min(max, p.eosTokens);
  const perBatch = p.algorithm ? p.acceptLen : 1;
  // the prefill batch's log sets every gauge from the last decode log's values (0 at first)
  s.acceptLength ??= 0;
  s.acceptRate ??= 0;
  for (let made = 0; made < tokens; made += perBatch) {
    s.batches++;
    s.accepted += perBatch;
    s.forward++;
    if (s.batches % p.decodeLogInterval !== 0) continue;
    s.acceptLength = p.algorithm ? s.accepted / s.forward : 0;
    s.acceptRate = p.algorithm ? s.accepted / (s.forward * p.draftTokens) : 0;
    s.accepted = s.forward = 0;
  }
}
