// Journal forensics benchmark: our streaming decoder + diagnosis against seed 000's Python procedure,
// on the same generated dump, at two sizes to show whether memory stays flat.
// Run: npx tsx bench/journal/bench.ts [sizeMB ...]
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJournalDump } from "./generate.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..", "..");
const EXPECTED = /OutOfMemoryError: CUDA out of memory\. Tried to allocate 2\.50 GiB/;
const TIMEOUT_MS = 10 * 60_000;

export interface RunFigures {
  ms: number;
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
  ours: RunFigures & { class: string };
  seed: RunFigures;
}

function run(cmd: string, args: string[], stdinPath?: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fd = stdinPath ? openSync(stdinPath, "r") : null;
    const child = spawn(cmd, args, { cwd: ROOT, stdio: [fd ?? "ignore", "pipe", "pipe"] });
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

function figures(r: Record<string, unknown>, bytes: number): RunFigures {
  const ms = Number(r.ms);
  const decisive = typeof r.decisive === "string" ? r.decisive : null;
  return { ms: Math.round(ms), mbPerS: Math.round((bytes / 2 ** 20 / (ms / 1000)) * 10) / 10, maxRssMiB: Math.round(Number(r.maxRssKiB) / 1024), decisive, correct: decisive !== null && EXPECTED.test(decisive) };
}

export async function runJournalBench(opts: { sizesMB?: number[] } = {}): Promise<SizeFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), "deploy-gate-journal-bench-"));
  const rows: SizeFigures[] = [];
  try {
    for (const sizeMB of opts.sizesMB ?? [50, 200]) {
      const path = join(dir, `dump-${sizeMB}MB.json`);
      const { bytes, records } = await generateJournalDump(path, sizeMB * 2 ** 20);
      const ours = await run(process.execPath, ["--import", "tsx", join(HERE, "child.ts"), path]);
      const seed = await run("python3", [join(HERE, "seed_procedure.py")], path);
      rows.push({ sizeMB, bytes, records, ours: { ...figures(ours, bytes), class: String(ours.class) }, seed: figures(seed, bytes) });
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export function renderBenchTable(rows: SizeFigures[]): string {
  const head = ["dump", "records", "impl", "time ms", "MB/s", "peak RSS MiB", "found the OOM line"];
  const body = rows.flatMap((r) => [
    [`${r.sizeMB} MB`, String(r.records), "deploy-gate (stream)", String(r.ours.ms), String(r.ours.mbPerS), String(r.ours.maxRssMiB), r.ours.correct ? `yes (${r.ours.class})` : "NO"],
    ["", "", "seed python procedure", String(r.seed.ms), String(r.seed.mbPerS), String(r.seed.maxRssMiB), r.seed.correct ? "yes" : `NO: ${(r.seed.decisive ?? "nothing").slice(0, 60)}`],
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("-|-"), ...body.map(line)].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const rows = await runJournalBench(sizes.length > 0 ? { sizesMB: sizes } : {});
  console.log(renderBenchTable(rows));
}
