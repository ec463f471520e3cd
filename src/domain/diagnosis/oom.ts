// The gap math of a CUDA/HIP OOM (seed 000 §1.4): ask − free = shortfall, units normalised to GiB.

export interface OomGap {
  triedGiB: number;
  freeGiB: number | null;
  totalGiB: number | null;
  shortfallGiB: number | null;
}

const UNIT_GIB: Record<string, number> = {
  B: 1 / 2 ** 30,
  KiB: 1 / 2 ** 20,
  MiB: 1 / 2 ** 10,
  GiB: 1,
  TiB: 1024,
  KB: 1 / 2 ** 20,
  MB: 1 / 2 ** 10,
  GB: 1,
};
const Q = String.raw`(\d[\d,]*(?:\.\d+)?) ?(B|KiB|MiB|GiB|TiB|KB|MB|GB)`;
// torch; ggml-cuda's `allocating 8192.00 MiB on device 0: cudaMalloc failed`; ggml's `failed to allocate CUDA0
// buffer of size 8589934592` (bytes)
const TRIED = new RegExp(
  `Tried to allocate ${Q}|allocating ${Q} on device \\d+: cudaMalloc failed|failed to allocate \\w+ buffer of size (\\d+)()\\b`,
);
// torch ≥ 2.1 ("capacty" in 2.1 itself)
const NEW_TOTAL = new RegExp(`total capac(?:i)?ty of ${Q} of which ${Q} is free`);
// torch < 2.1: `(GPU 0; 23.69 GiB total capacity; 22.48 GiB already allocated; 8.94 MiB free; …)`
const OLD_TOTAL = new RegExp(`${Q} total capacity`);
const OLD_FREE = new RegExp(`${Q} free`);

function gib(m: RegExpExecArray | null, at = 1): number | null {
  if (!m) return null;
  const n = Number(m[at]!.replace(/,/g, ""));
  const f = UNIT_GIB[m[at + 1]!];
  return f === undefined || !Number.isFinite(n) ? null : n * f;
}

const round = (n: number | null) => (n === null ? null : Math.round(n * 10000) / 10000);

// vLLM's startup budget check: `Free memory on device cuda:0 (0.88/23.56 GiB) on startup is less than desired GPU
// memory utilization (0.9, 21.2 GiB)`: the budget is what it asked for
const BUDGET =
  /Free memory on device [^(]{0,40}\((\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) GiB\) on startup is less than desired GPU memory utilization \([\d.]+, (\d+(?:\.\d+)?) GiB\)/;

export function readOomGap(text: string): OomGap | null {
  const b = BUDGET.exec(text);
  if (b) {
    const [free, total, tried] = [Number(b[1]), Number(b[2]), Number(b[3])];
    return { triedGiB: tried, freeGiB: free, totalGiB: total, shortfallGiB: round(Math.max(0, tried - free)) };
  }
  const t = TRIED.exec(text);
  const at = t === null ? 1 : t[1] !== undefined ? 1 : t[3] !== undefined ? 3 : 5;
  const tried = t !== null && at === 5 ? Number(t[5]) / 2 ** 30 : gib(t, at);
  if (tried === null) return null;
  const modern = NEW_TOTAL.exec(text);
  const total = modern ? gib(modern, 1) : gib(OLD_TOTAL.exec(text));
  const free = modern ? gib(modern, 3) : gib(OLD_FREE.exec(text));
  return {
    triedGiB: round(tried)!,
    freeGiB: round(free),
    totalGiB: round(total),
    shortfallGiB: free === null ? null : round(Math.max(0, tried - free)),
  };
}

/** A GiB figure as the fixes print it: two decimals at most, `?` when unknown. */
export const giB = (n: number | null | undefined): string =>
  n === null || n === undefined ? "?" : String(Math.round(n * 100) / 100);

/** `asked 2.5 GiB with 1.2 GiB free of 79.1 GiB (short 1.3 GiB)`, or "out of GPU memory" without the numbers. */
export function gapText(o: OomGap | null): string {
  return o
    ? `asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free of ${giB(o.totalGiB)} GiB (short ${giB(o.shortfallGiB)} GiB)`
    : "out of GPU memory";
}
