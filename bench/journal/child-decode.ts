// The decoder alone, in its own process, doing what the seed's Python procedure does: decode every record
// of a dump and keep the last line matching the same failure pattern. `--reference` runs the JSON.parse
// reference decoder instead; `--digest` adds a hash of every decoded record (the correctness check; untimed
// runs only, it costs more than the decoding).
import { createHash } from "node:crypto";
import { closeSync, createReadStream, openSync, readFileSync, readSync } from "node:fs";
import { JournalDecoder } from "../../src/domain/journal/decoder.js";
import type { LogRecord } from "../../src/domain/journal/record.js";
import { ReferenceJournalDecoder } from "../../test/domain/journal/reference-decoder.js";

const [path, ...flags] = process.argv.slice(2);
if (!path) {
  console.error("usage: node --import tsx bench/journal/child-decode.ts DUMP.json [--reference] [--digest]");
  process.exit(2);
}
const reference = flags.includes("--reference");
const hash = flags.includes("--digest") ? createHash("sha256") : null;
const GREP = /Worker failed with error|OutOfMemoryError|out of memory|Constraints violated|Error/;

/**
 * This thread's CPU time in ms (Linux schedstat, ns), or null: process CPU also counts V8's compiler and GC
 * threads, which the split shows.
 */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

const t0 = performance.now();
const c0 = process.cpuUsage();
const m0 = threadCpuMs();
let decisive: string | null = null;
let records = 0;
const take = (recs: LogRecord[]) => {
  records += recs.length;
  for (const r of recs) {
    if (GREP.test(r.text)) decisive = r.text;
    hash?.update(JSON.stringify(r) + "\n");
  }
};
let stats: unknown;
if (reference) {
  const d = new ReferenceJournalDecoder();
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    const lines = (rest + (chunk as string)).split("\n");
    rest = lines.pop()!;
    for (const l of lines) take(d.push(l));
  }
  take(d.push(rest));
  take(d.flush());
  stats = d.stats;
} else {
  // One reused read buffer, as Python's buffered stdin does: pushBytes decodes in place and copies what it keeps.
  const d = new JournalDecoder();
  const out: LogRecord[] = [];
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
    out.length = 0;
    take(d.pushBytes(buf.subarray(0, n), out));
  }
  closeSync(fd);
  take(d.flush());
  stats = d.stats;
}
hash?.update(JSON.stringify(stats));
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const m1 = threadCpuMs();
const mainCpuMs = m0 === null || m1 === null ? null : m1 - m0;
process.stdout.write(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainCpuMs,
    maxRssKiB: process.resourceUsage().maxRSS,
    decisive,
    records,
    digest: hash?.digest("hex") ?? null,
  }) + "\n",
);
