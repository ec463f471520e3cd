// Speculative-decoding engagement, from the log line (every era, reference §1.5) or /metrics counters.
import { messageOf } from "./lines.js";
import { parseNumber } from "../../../lib/number.js";

export interface SpecDecode {
  meanAcceptanceLength: number | null;
  /** 0–1. */
  acceptanceRate: number | null;
  perPosition: number[];
}

const LINE = /(?:SpecDecoding|Speculative) metrics: /;
const FLOAT = String.raw`(-?\d[\d,]*(?:\.\d+)?|nan)`;
const MEAN = new RegExp(`Mean acceptance length: ${FLOAT}`);
const AVG_PCT = new RegExp(`Avg Draft acceptance rate: ${FLOAT}%`);
const DRAFT_RATE = new RegExp(`(?<!Avg )Draft acceptance rate: ${FLOAT}(%?)`);
const ACCEPTED = new RegExp(`(?:Accepted: |Number of accepted tokens: )${FLOAT}`);
const DRAFTED = new RegExp(`(?:Drafted: |Number of draft tokens: )${FLOAT}`);
// The per-position list is comma-separated inside a comma-separated line: take numbers until the next label.
const PER_POS = /Per-position acceptance rate: ((?:\d+(?:\.\d+)?|nan)(?:, (?:\d+(?:\.\d+)?|nan))*)/;

/** Whether readSpecDecode reads this line (it reads every such line): the last one is all a diagnosis keeps. */
export function isSpecLine(line: string): boolean {
  return LINE.test(messageOf(line));
}

export function readSpecDecode(line: string): SpecDecode | null {
  const msg = messageOf(line);
  if (!LINE.test(msg)) return null;
  const mean = parseNumber(MEAN.exec(msg)?.[1]);
  let rate: number | null = null;
  const avg = AVG_PCT.exec(msg);
  const draft = DRAFT_RATE.exec(msg);
  if (avg) rate = pct(parseNumber(avg[1]));
  else if (draft) rate = draft[2] === "%" ? pct(parseNumber(draft[1])) : parseNumber(draft[1]);
  if (rate === null) {
    // `nan` rate or no rate label: fall back to the token counts.
    const acc = parseNumber(ACCEPTED.exec(msg)?.[1]);
    const drafted = parseNumber(DRAFTED.exec(msg)?.[1]);
    if (acc !== null && drafted) rate = acc / drafted;
  }
  const per =
    PER_POS.exec(msg)?.[1]
      ?.split(", ")
      .map(Number)
      .filter((n) => Number.isFinite(n)) ?? [];
  return { meanAcceptanceLength: mean, acceptanceRate: rate, perPosition: per };
}

function pct(n: number | null): number | null {
  return n === null ? null : n / 100;
}

const SAMPLE = /^(vllm:spec_decode_\w+?)(?:_total)?(?:\{([^}]*)\})? ([^\s]+)/;

/** Prometheus text -> engagement figures; null when no `vllm:spec_decode_*` sample is present. */
export function readSpecMetrics(prometheusText: string): SpecDecode | null {
  const sums = new Map<string, number>();
  const perPos = new Map<number, number>();
  let seen = false;
  for (const line of prometheusText.split("\n")) {
    const m = SAMPLE.exec(line.trim());
    if (!m || m[1]!.endsWith("_created")) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    seen = true;
    const name = m[1]!.replace(/^vllm:spec_decode_/, "");
    if (name === "num_accepted_tokens_per_pos") {
      const pos = Number(/position="(\d+)"/.exec(m[2] ?? "")?.[1]);
      if (Number.isInteger(pos)) perPos.set(pos, (perPos.get(pos) ?? 0) + value);
    } else sums.set(name, (sums.get(name) ?? 0) + value);
  }
  if (!seen) return null;
  const drafts = sums.get("num_drafts") ?? 0;
  const draftTokens = sums.get("num_draft_tokens") ?? 0;
  const accepted = sums.get("num_accepted_tokens") ?? 0;
  const v0Rate = sums.get("draft_acceptance_rate");
  const positions = [...perPos.keys()].sort((a, b) => a - b);
  return {
    meanAcceptanceLength: drafts > 0 ? 1 + accepted / drafts : null,
    acceptanceRate: draftTokens > 0 ? accepted / draftTokens : (v0Rate ?? null),
    perPosition: drafts > 0 ? positions.map((p) => perPos.get(p)! / drafts) : [],
  };
}
