// Latency under load, the figures: per request TTFT, inter-token gaps, end-to-end time and output tokens;
// over the run p50/p95/p99 (linear interpolation between ranks, numpy's default, as `vllm bench serve`
// computes them), errors and output tokens/s; judged against declared limits and the previous deploy's
// figures. Pure.

export interface RequestSample {
  ok: boolean;
  error: string | null;
  ttftMs: number | null;
  /** gaps between successive token events */
  itlMs: number[];
  e2eMs: number;
  outputTokens: number;
  /** usage.prompt_tokens, when the stream carried usage */
  promptTokens?: number | null;
}
export interface Pct {
  p50: number;
  p95: number;
  p99: number;
}
export interface LoadFigures {
  requests: number;
  errors: number;
  errorRate: number;
  ttftMs: Pct | null;
  itlMs: Pct | null;
  e2eMs: Pct | null;
  outputTokPerS: number;
  wallMs: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const at = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

const round = (x: number) => Math.round(x * 100) / 100;
function pct(xs: readonly number[]): Pct | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), p99: round(percentile(s, 99)) };
}

export function figuresOf(samples: readonly RequestSample[], wallMs: number): LoadFigures {
  const ok = samples.filter((s) => s.ok);
  const errors = samples.length - ok.length;
  const tokens = ok.reduce((n, s) => n + s.outputTokens, 0);
  return {
    requests: samples.length,
    errors,
    errorRate: samples.length ? round(errors / samples.length) : 0,
    ttftMs: pct(ok.flatMap((s) => (s.ttftMs === null ? [] : [s.ttftMs]))),
    itlMs: pct(ok.flatMap((s) => s.itlMs)),
    e2eMs: pct(ok.map((s) => s.e2eMs)),
    outputTokPerS: wallMs > 0 ? round((tokens * 1000) / wallMs) : 0,
    wallMs: Math.round(wallMs),
  };
}

export interface SloLimits {
  ttftP95Ms?: number;
  itlP95Ms?: number;
  e2eP95Ms?: number;
  maxErrorRate?: number;
  minOutputTokPerS?: number;
}

/** What breaks a limit, and what regressed past the tolerance against the previous deploy's figures. */
export function judgeSlo(
  f: LoadFigures,
  limits: SloLimits,
  previous: LoadFigures | null,
  tolerance: number,
): { broken: string[]; regressed: string[] } {
  const broken: string[] = [];
  const over = (what: string, v: number | undefined, max: number | undefined) => {
    if (max !== undefined && v !== undefined && v > max) broken.push(`${what} ${v} > ${max}`);
  };
  over("TTFT p95 ms", f.ttftMs?.p95, limits.ttftP95Ms);
  over("inter-token p95 ms", f.itlMs?.p95, limits.itlP95Ms);
  over("end-to-end p95 ms", f.e2eMs?.p95, limits.e2eP95Ms);
  over("error rate", f.errorRate, limits.maxErrorRate);
  if (limits.minOutputTokPerS !== undefined && f.outputTokPerS < limits.minOutputTokPerS)
    broken.push(`output tok/s ${f.outputTokPerS} < ${limits.minOutputTokPerS}`);
  const regressed: string[] = [];
  if (previous) {
    const worse = (what: string, now: number | undefined, was: number | undefined) => {
      if (now !== undefined && was !== undefined && was > 0 && now > was * (1 + tolerance))
        regressed.push(`${what} ${now} vs ${was} at the previous deploy (+${Math.round((now / was - 1) * 100)}%)`);
    };
    worse("TTFT p95 ms", f.ttftMs?.p95, previous.ttftMs?.p95);
    worse("inter-token p95 ms", f.itlMs?.p95, previous.itlMs?.p95);
    worse("end-to-end p95 ms", f.e2eMs?.p95, previous.e2eMs?.p95);
    if (previous.outputTokPerS > 0 && f.outputTokPerS < previous.outputTokPerS * (1 - tolerance))
      regressed.push(
        `output tok/s ${f.outputTokPerS} vs ${previous.outputTokPerS} at the previous deploy (${Math.round((f.outputTokPerS / previous.outputTokPerS - 1) * 100)}%)`,
      );
  }
  return { broken, regressed };
}
