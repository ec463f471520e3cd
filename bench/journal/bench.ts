// Journal forensics benchmark: our streaming decoder (alone, and with the diagnosis) against seed 000's
// Python procedure, on the same generated dump, at two sizes to show whether memory stays flat; the
// decoder's records are checked identical to the JSON.parse reference decoder's.
// `explain` is measured as a user runs it: the bundle of this tree (built to a temporary directory, as
// `npm run build` would) started as `node cli.js explain DUMP --json`, against `python3 seed_procedure.py <
// DUMP`, both whole processes (start-up and module loading included), CPU time from wait4 (rusage.py).
// Run: npx tsx bench/journal/bench.ts [sizeMB ...]
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJournalDump } from "./generate.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..", "..");
const EXPECTED = /OutOfMemoryError: CUDA out of memory\. Tried to allocate 2\.50 GiB/;
const TIMEOUT_MS = 10 * 60_000;
/** The decoder and the Python procedure run this many times, alternately; their medians are compared. */
const REPEATS = 5;

export interface RunFigures {
  /** Wall time of the work, start-up excluded. */
  ms: number;
  /** CPU time (user + system): steadier than wall time on a shared machine. */
  cpuMs: number;
  /** CPU time of the main thread alone (the rest is V8's compiler and GC threads); null where not measured. */
  mainCpuMs: number | null;
  /** Dump size over CPU time. */
  mbPerS: number;
  maxRssMiB: number;
  decisive: string | null;
  /** Found the OOM line the dump was built around. */
  correct: boolean;
}

export interface SizeFigures {
  sizeMB: number;
  bytes: number;
  records: number;
  /** The decoder alone (field scanner) with the Python procedure's grep: the like-for-like figure. */
  decoder: RunFigures;
  /** Decoded records identical to the JSON.parse reference decoder's (sha256 over every record and the counts). */
  identical: boolean;
  /** CPU-time ratio of the medians: seed python (12-char key) over the decoder; the target is >= 3. */
  speedup: number;
  /** The same ratio per pair of runs (decoder run i against python run i), lowest first. */
  speedups: number[];
  /**
   * `node dist/cli.js explain DUMP --json` (decode + diagnosis) as a whole process, the bundle of this tree, median
   * of REPEATS runs alternating with the Python's, and its CPU-time ratio against the Python's whole process.
   */
  explain: RunFigures & { class: string };
  explainSpeedup: number;
  explainSpeedups: number[];
  /** The seed's procedure as written: dedupe on the first 12 characters (its own timing, start-up excluded). */
  seed: RunFigures;
  /** The same Python runs as whole processes: interpreter start-up and imports included, as explain's are. */
  seedProcess: RunFigures;
  /** The same procedure deduping on the whole message, to show what the 12-char key costs. */
  seedWholeKey: RunFigures;
}

export interface BenchFigures {
  /** Our child on an empty dump: the Node + tsx floor under every RSS figure. */
  baselineRssMiB: number;
  /**
   * NODE_EXTRA_CA_CERTS of this shell (a sandbox's proxy CA bundle), which Node 20 reads at every start: the CPU
   * it costs `node -e 0` (median of REPEATS pairs); null when unset. The measured processes run without it.
   */
  extraCaCerts: { path: string; startCpuMs: number } | null;
  sizes: SizeFigures[];
}

/**
 * The environment every measured process gets: this shell's, less NODE_EXTRA_CA_CERTS, which a GitHub runner or a
 * user's shell does not set and which would charge every Node start for a CA bundle explain never uses.
 */
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_EXTRA_CA_CERTS"));

function run(
  cmd: string,
  args: string[],
  stdinPath?: string,
  env: NodeJS.ProcessEnv = CHILD_ENV,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fd = stdinPath ? openSync(stdinPath, "r") : null;
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: [fd ?? "ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (fd !== null) closeSync(fd);
      if (code !== 0) reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${err.slice(-2000)}`));
      else resolve(JSON.parse(out.trim().split("\n").pop()!) as Record<string, unknown>);
    });
  });
}

/** A whole process measured by rusage.py; `out` is the command's stdout (its last JSON value). */
async function runProcess(
  stdinPath: string | null,
  cmd: string[],
): Promise<{ proc: RunFigures; out: Record<string, unknown> }> {
  const r = await run("python3", [join(HERE, "rusage.py"), stdinPath ?? "-", ...cmd]);
  if (r.exit !== 0 && r.exit !== 1) throw new Error(`${cmd.join(" ")} exited ${String(r.exit)}`);
  const text = String(r.out).trim();
  // explain --json prints one pretty JSON document; the Python prints one JSON line
  const out = JSON.parse(text.startsWith("{\n") ? text : text.split("\n").pop()!) as Record<string, unknown>;
  return { proc: { ...figures({ ...r, ms: r.wallMs, decisive: out.decisive }, 0) }, out };
}

const mbPerS = (bytes: number, cpuMs: number) => Math.round((bytes / 2 ** 20 / (cpuMs / 1000)) * 10) / 10;

function figures(r: Record<string, unknown>, bytes: number): RunFigures {
  const ms = Number(r.ms);
  const cpuMs = Number(r.cpuMs);
  const decisive = typeof r.decisive === "string" ? r.decisive : null;
  const mainCpuMs = typeof r.mainCpuMs === "number" ? Math.round(r.mainCpuMs) : null;
  return {
    ms: Math.round(ms),
    cpuMs: Math.round(cpuMs),
    mainCpuMs,
    mbPerS: mbPerS(bytes, cpuMs),
    maxRssMiB: Math.round(Number(r.maxRssKiB) / 1024),
    decisive,
    correct: decisive !== null && EXPECTED.test(decisive),
  };
}

/** The run of median CPU time. */
function median(runs: RunFigures[]): RunFigures {
  return [...runs].sort((a, b) => a.cpuMs - b.cpuMs)[runs.length >> 1]!;
}

export async function runJournalBench(opts: { sizesMB?: number[] } = {}): Promise<BenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), "deploy-gate-journal-bench-"));
  const rows: SizeFigures[] = [];
  try {
    const empty = join(dir, "empty.json");
    writeFileSync(empty, "");
    const baseline = await run(process.execPath, ["--import", "tsx", join(HERE, "child.ts"), empty]);
    // what `npx deploy-gate` runs: the bundle, built from this tree
    const dist = join(dir, "dist");
    execFileSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--outdir", dist], {
      cwd: ROOT,
      stdio: "ignore",
    });
    // the interpreter itself, not a version manager's shim script in front of it
    const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
    const explainCmd = (path: string) => [process.execPath, join(dist, "cli.js"), "explain", path, "--json"];
    for (const sizeMB of opts.sizesMB ?? [5, 50, 200]) {
      const path = join(dir, `dump-${sizeMB}MB.json`);
      const { bytes, records } = await generateJournalDump(path, sizeMB * 2 ** 20);
      // Alternate runs, so a busy moment on a shared machine weighs on both sides.
      const decRuns: Record<string, unknown>[] = [];
      const seedRuns: Record<string, unknown>[] = [];
      const seedProcFigs: RunFigures[] = [];
      const explainFigs: (RunFigures & { class: string })[] = [];
      for (let i = 0; i < REPEATS; i++) {
        decRuns.push(await run(process.execPath, ["--import", "tsx", join(HERE, "child-decode.ts"), path]));
        const ex = await runProcess(null, explainCmd(path));
        explainFigs.push({ ...ex.proc, mbPerS: mbPerS(bytes, ex.proc.cpuMs), class: String(ex.out.class) });
        const py = await runProcess(path, [python, join(HERE, "seed_procedure.py"), "12"]);
        seedRuns.push(py.out);
        seedProcFigs.push({ ...py.proc, mbPerS: mbPerS(bytes, py.proc.cpuMs) });
      }
      const fastDigest = await run(process.execPath, [
        "--import",
        "tsx",
        join(HERE, "child-decode.ts"),
        path,
        "--digest",
      ]);
      const refDigest = await run(process.execPath, [
        "--import",
        "tsx",
        join(HERE, "child-decode.ts"),
        path,
        "--reference",
        "--digest",
      ]);
      const identical =
        typeof fastDigest.digest === "string" &&
        fastDigest.digest === refDigest.digest &&
        fastDigest.records === refDigest.records;
      const whole = await run(python, [join(HERE, "seed_procedure.py"), "0"], path);
      const decFigs = decRuns.map((r) => figures(r, bytes));
      const seedFigs = seedRuns.map((r) => figures(r, bytes));
      const decoder = median(decFigs);
      const seedFig = median(seedFigs);
      const speedups = decFigs
        .map((d, i) => Math.round((seedFigs[i]!.cpuMs / d.cpuMs) * 100) / 100)
        .sort((a, b) => a - b);
      const explain = median(explainFigs) as RunFigures & { class: string };
      const seedProcess = median(seedProcFigs);
      const explainSpeedups = explainFigs
        .map((d, i) => Math.round((seedProcFigs[i]!.cpuMs / d.cpuMs) * 100) / 100)
        .sort((a, b) => a - b);
      rows.push({
        sizeMB,
        bytes,
        records,
        decoder,
        identical,
        speedup: Math.round((seedFig.cpuMs / decoder.cpuMs) * 100) / 100,
        speedups,
        explain,
        explainSpeedup: Math.round((seedProcess.cpuMs / explain.cpuMs) * 100) / 100,
        explainSpeedups,
        seed: seedFig,
        seedProcess,
        seedWholeKey: figures(whole, bytes),
      });
      rmSync(path, { force: true });
    }
    return {
      baselineRssMiB: Math.round(Number(baseline.maxRssKiB) / 1024),
      extraCaCerts: await caCertsCost(),
      sizes: rows,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderBenchTable(figs: BenchFigures): string {
  const rows = figs.sizes;
  const head = ["dump", "records", "impl", "wall ms", "cpu ms", "MB/s (cpu)", "peak RSS MiB", "result"];
  const body = rows.flatMap((r) => [
    // The decoder runs the Python procedure's grep: its last hit must be the one Python finds with a whole-line key.
    [
      `${r.sizeMB} MB`,
      String(r.records),
      "deploy-gate decoder (scan)",
      String(r.decoder.ms),
      String(r.decoder.cpuMs),
      String(r.decoder.mbPerS),
      String(r.decoder.maxRssMiB),
      `same records as reference: ${r.identical ? "yes" : "NO"}; grep's last hit = python (whole-line key)'s: ${r.decoder.decisive !== null && r.decoder.decisive === r.seedWholeKey.decisive ? "yes" : "NO"}`,
    ],
    [
      "",
      "",
      `deploy-gate explain, whole process (node dist/cli.js explain --json), median of ${REPEATS}`,
      String(r.explain.ms),
      String(r.explain.cpuMs),
      String(r.explain.mbPerS),
      String(r.explain.maxRssMiB),
      r.explain.correct ? `found the OOM line (${r.explain.class})` : "OOM line NOT found",
    ],
    seedRow("seed python, whole process (python3 seed_procedure.py)", r.seedProcess),
    seedRow("seed python, 12-char key (its own timer)", r.seed),
    seedRow("seed python, whole-line key", r.seedWholeKey),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  const ratios = rows
    .map(
      (r) =>
        `${r.sizeMB} MB: ${r.speedup}x (pairs ${r.speedups[0]}-${r.speedups[r.speedups.length - 1]}x; wall ${Math.round((r.seed.ms / r.decoder.ms) * 100) / 100}x)`,
    )
    .join(", ");
  const note = `decoder vs seed python (12-char key), median CPU time of ${REPEATS} alternate runs each: ${ratios} (target >= 3x); Node + tsx floor (empty dump): ${figs.baselineRssMiB} MiB peak RSS`;
  const explainNote = `explain vs seed python, whole processes (start-up included), same runs: ${rows
    .map(
      (r) =>
        `${r.sizeMB} MB: ${r.explainSpeedup}x (pairs ${r.explainSpeedups[0]}-${r.explainSpeedups[r.explainSpeedups.length - 1]}x, target ${explainTarget(r.sizeMB)}x)`,
    )
    .join(", ")}`;
  const main = rows
    .filter((r) => r.decoder.mainCpuMs !== null)
    .map(
      (r) =>
        `${r.sizeMB} MB: ${r.decoder.mainCpuMs} of ${r.decoder.cpuMs} ms (${Math.round((r.seed.cpuMs / r.decoder.mainCpuMs!) * 100) / 100}x the python)`,
    );
  const split =
    main.length > 0
      ? [`decoder CPU on its main thread alone (the rest is V8's compiler and GC threads): ${main.join(", ")}`]
      : [];
  const ca = figs.extraCaCerts
    ? [
        `this shell sets NODE_EXTRA_CA_CERTS (${figs.extraCaCerts.path}): Node reads it at every start, ` +
          `${figs.extraCaCerts.startCpuMs} ms CPU of \`node -e 0\` here; every process above ran without it, as a runner's does`,
      ]
    : [];
  return [
    line(head),
    widths.map((w) => "-".repeat(w)).join("-|-"),
    ...body.map(line),
    note,
    explainNote,
    ...split,
    ...ca,
  ].join("\n");
}

/** What NODE_EXTRA_CA_CERTS costs a Node start here: `node -e 0` with it and without, alternately. */
async function caCertsCost(): Promise<BenchFigures["extraCaCerts"]> {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return null;
  const cpu = async (env: NodeJS.ProcessEnv) =>
    Number((await run("python3", [join(HERE, "rusage.py"), "-", process.execPath, "-e", "0"], undefined, env)).cpuMs);
  const diffs: number[] = [];
  for (let i = 0; i < REPEATS; i++) diffs.push((await cpu(process.env)) - (await cpu(CHILD_ENV)));
  return { path, startCpuMs: Math.round([...diffs].sort((a, b) => a - b)[diffs.length >> 1]!) };
}

/** Issue 25's target for explain against the Python: 3x from 50 MB, 1x on small dumps (V8's start-up is fixed). */
export function explainTarget(sizeMB: number): number {
  return sizeMB >= 50 ? 3 : 1;
}

function seedRow(label: string, f: RunFigures): string[] {
  return [
    "",
    "",
    label,
    String(f.ms),
    String(f.cpuMs),
    String(f.mbPerS),
    String(f.maxRssMiB),
    f.correct ? "found the OOM line" : `OOM line not found: ${(f.decisive ?? "nothing").slice(0, 50)}`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const rows = await runJournalBench(sizes.length > 0 ? { sizesMB: sizes } : {});
  console.log(renderBenchTable(rows));
}
