// verify.vram: per-card VRAM used and margin, read on the host with whichever tool exists. Pure parsers
// and judgement; the facts script runs the tools. Formats:
// - `nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv,noheader,nounits`: one line per
//   card, "0, NVIDIA GeForce RTX 4090, 20311, 24564", MiB (nvidia-smi(1), --query-gpu; netdata/netdata#10362).
// - `rocm-smi --showmeminfo vram`: "GPU[0]          : VRAM Total Memory (B): 4278190080" and
//   "GPU[0]          : VRAM Total Used Memory (B): 108814336", bytes (ROCm/legacy-rocm-build#1909); an APU's
//   iGPU is listed too, e.g. Raphael with a 64 MiB carve-out (mudler/LocalAI#7761), and must not be counted.
import { fail, pass, skip, warn, type Finding } from "../../domain/report/finding.js";

export const CHECK = "verify.vram";
const MiB = 1024 ** 2;

export interface Card {
  index: number;
  name: string | null;
  usedBytes: number;
  totalBytes: number;
}

export function parseNvidiaSmi(text: string): Card[] {
  const out: Card[] = [];
  for (const line of text.split("\n")) {
    const f = line.split(",").map((x) => x.trim());
    if (f.length < 4) continue;
    const [idx, used, total] = [Number(f[0]), Number(f.at(-2)), Number(f.at(-1))];
    if (!/^\d+$/.test(f[0]!) || !Number.isFinite(used) || !Number.isFinite(total)) continue;
    out.push({ index: idx, name: f.slice(1, -2).join(","), usedBytes: used * MiB, totalBytes: total * MiB });
  }
  return out;
}

export function parseRocmSmi(text: string): Card[] {
  const byIdx = new Map<number, { used?: number; total?: number }>();
  for (const m of text.matchAll(/^GPU\[(\d+)\]\s*:\s*VRAM Total (Used )?Memory \(B\):\s*(\d+)\s*$/gm)) {
    const c = byIdx.get(Number(m[1])) ?? {};
    if (m[2]) c.used = Number(m[3]);
    else c.total = Number(m[3]);
    byIdx.set(Number(m[1]), c);
  }
  return [...byIdx]
    .filter(([, c]) => c.used !== undefined && c.total !== undefined)
    .map(([index, c]) => ({ index, name: null, usedBytes: c.used!, totalBytes: c.total! }));
}

const LIST = /^\d+(,\d+)*$/;

/** Host cards the container was given: CDI `--device nvidia.com/gpu=N` in the launch file, else the
 *  NVIDIA runtime's NVIDIA_VISIBLE_DEVICES; null when every card is visible (or it cannot be told). */
export function hostCards(devicePaths: readonly string[], env: ReadonlyMap<string, string> | null): number[] | null {
  const cdi = devicePaths
    .map((p) => /^nvidia\.com\/gpu=(.+)$/.exec(p)?.[1])
    .filter((v): v is string => v !== undefined);
  if (cdi.length) return cdi.every((v) => /^\d+$/.test(v)) ? cdi.map(Number) : null;
  const nv = env?.get("NVIDIA_VISIBLE_DEVICES")?.trim();
  return nv !== undefined && LIST.test(nv) ? nv.split(",").map(Number) : null;
}

/** The cards the engine uses: the host cards the container was given (hostCards), narrowed by its
 *  *_VISIBLE_DEVICES (indices into what the container sees), else every card but the small ones (an
 *  iGPU's carve-out is a few hundred MiB at most; a serving card is many GiB). */
export function engineCards(
  cards: readonly Card[],
  env: ReadonlyMap<string, string> | null,
  devicePaths: readonly string[] = [],
): { used: Card[]; ignored: { card: Card; why: string }[] } {
  const given = hostCards(devicePaths, env);
  const vis = ["CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"]
    .map((k) => env?.get(k))
    .find((v) => v !== undefined && LIST.test(v));
  const inner = vis?.split(",").map(Number);
  // inside the container card i is the i-th card it was given
  const wanted = inner ? inner.map((i) => (given ? given[i] : i)).filter((i): i is number => i !== undefined) : given;
  const largest = Math.max(0, ...cards.map((c) => c.totalBytes));
  const ignored: { card: Card; why: string }[] = [];
  const used = cards.filter((c) => {
    if (wanted && !wanted.includes(c.index)) {
      ignored.push({ card: c, why: "not given to the engine's container" });
      return false;
    }
    if (!wanted && c.totalBytes < largest / 4) {
      ignored.push({ card: c, why: "an integrated GPU (small carve-out), not a serving card" });
      return false;
    }
    return true;
  });
  return { used, ignored };
}

const gib = (b: number) => (b / 1024 ** 3).toFixed(2);
export const MARGIN_FAIL_BYTES = 256 * MiB;
export const MARGIN_WARN_BYTES = 512 * MiB;

export function checkVram(
  tool: "nvidia-smi" | "rocm-smi" | null,
  output: string,
  env: ReadonlyMap<string, string> | null,
  devicePaths: readonly string[] = [],
): Finding {
  if (tool === null)
    return skip(CHECK, "neither nvidia-smi nor rocm-smi exists on the host: VRAM margin not read", {
      fix: "install the GPU vendor's smi tool on the host to have the margin checked",
    });
  const cards = tool === "nvidia-smi" ? parseNvidiaSmi(output) : parseRocmSmi(output);
  if (cards.length === 0)
    return warn(CHECK, `${tool} printed no card this check can read`, {
      evidence: output.trim().split("\n").slice(0, 6),
      fix: `run ${tool} on the host by hand: a driver that is not loaded prints an error instead of cards`,
    });
  const { used, ignored } = engineCards(cards, env, devicePaths);
  const rows = used.map((c) => ({
    index: c.index,
    usedGiB: Number(gib(c.usedBytes)),
    totalGiB: Number(gib(c.totalBytes)),
    marginGiB: Number(gib(c.totalBytes - c.usedBytes)),
  }));
  const evidence = [
    ...used.map(
      (c) =>
        `card ${c.index}${c.name ? ` (${c.name})` : ""}: ${gib(c.usedBytes)} of ${gib(c.totalBytes)} GiB used, margin ${gib(c.totalBytes - c.usedBytes)} GiB`,
    ),
    ...ignored.map(({ card, why }) => `card ${card.index} not counted: ${why}`),
    `read with ${tool} after the engine's boot (vLLM preallocates: this is its high-water)`,
  ];
  const data = { tool, cards: rows, ignored: ignored.map((i) => i.card.index) };
  const tight = used.filter((c) => c.totalBytes - c.usedBytes < MARGIN_FAIL_BYTES);
  const thin = used.filter((c) => c.totalBytes - c.usedBytes < MARGIN_WARN_BYTES);
  const fix =
    "lower --gpu-memory-utilization (or pin --kv-cache-memory-bytes) so a fragmentation spike or a larger graph capture cannot OOM the engine mid-request";
  if (tight.length)
    return fail(
      CHECK,
      `VRAM margin below ${MARGIN_FAIL_BYTES / MiB} MiB on card ${tight.map((c) => c.index).join(", ")}`,
      { evidence, data, fix },
    );
  if (thin.length)
    return warn(
      CHECK,
      `VRAM margin below ${MARGIN_WARN_BYTES / MiB} MiB on card ${thin.map((c) => c.index).join(", ")}`,
      { evidence, data, fix },
    );
  return pass(CHECK, `VRAM margin ${rows.map((r) => `${r.marginGiB} GiB`).join(", ")} on ${rows.length} card(s)`, {
    evidence,
    data,
  });
}
