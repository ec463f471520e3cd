// Terminal rendering of an explain result; colour is the caller's choice (--no-color, NO_COLOR, a tty).
import type { Plan } from "../engine/plan.js";
import { paint } from "./paint.js";
import type { ExplainResult } from "../diagnosis/result.js";

const HEALTHY = new Set(["ready", "booting"]);

const PLAN_LABELS: ReadonlyArray<readonly [keyof Plan, string, string]> = [
  ["kvTokens", "KV cache", "tokens"],
  ["maxModelLen", "max model len", "tokens"],
  ["maxConcurrency", "max concurrency", "x"],
  ["gpuBlocks", "GPU blocks", ""],
  ["availableKvGiB", "KV memory", "GiB"],
  ["modelLoadGiB", "weights", "GiB"],
  ["modelLoadSeconds", "weight load", "s"],
  ["estimatedGraphGiB", "CUDA graphs (estimated)", "GiB"],
  ["graphGiB", "CUDA graphs (captured)", "GiB"],
  ["graphSeconds", "graph capture", "s"],
  ["compileSeconds", "torch.compile", "s"],
];

function num(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : String(n);
}

export function renderExplain(r: ExplainResult, color: boolean): string {
  const out: string[] = [];
  const bad = !HEALTHY.has(r.class);
  out.push(`${paint(color, bad ? "1;31" : "1;32", r.class.toUpperCase())}  ${r.summary}`);
  if (r.decisive) out.push(`${paint(color, "1", "decisive:")} ${r.decisive}`);
  if (r.oom) {
    const o = r.oom;
    out.push(
      `${paint(color, "1", "gap:")} tried ${o.triedGiB} GiB, free ${o.freeGiB ?? "?"} GiB of ${o.totalGiB ?? "?"} GiB, short ${o.shortfallGiB ?? "?"} GiB`,
    );
  }
  if (r.fix) out.push(`${paint(color, "1;33", "fix:")} ${r.fix}`);
  const plan = PLAN_LABELS.filter(([k]) => r.plan[k] !== null);
  if (plan.length > 0) {
    out.push(paint(color, "1", "plan:"));
    for (const [k, label, unit] of plan)
      out.push(`  ${label.padEnd(24)} ${num(r.plan[k]!)}${unit === "x" ? "x" : unit ? ` ${unit}` : ""}`);
  }
  if (r.specDecode) {
    const s = r.specDecode;
    const rate = s.acceptanceRate === null ? "?" : `${(s.acceptanceRate * 100).toFixed(1)}%`;
    out.push(
      `${paint(color, "1", "spec decode:")} mean acceptance length ${s.meanAcceptanceLength ?? "?"}, acceptance ${rate}, per position ${s.perPosition.join("/") || "?"}`,
    );
  }
  if (r.evidence.length > 0) {
    out.push(paint(color, "1", "evidence:"));
    for (const e of r.evidence) out.push(`  ${paint(color, "2", "│")} ${e}`);
  }
  return out.join("\n") + "\n";
}
