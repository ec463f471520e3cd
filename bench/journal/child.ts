// Measured in its own process so its peak RSS is its own: streams a dump through explain and reports.
import { explainBytes } from "../../src/commands/explain/sniff.js";
import { fileChunks } from "../../src/commands/explain/explain.js";

const path = process.argv[2];
if (!path) {
  console.error("usage: node --import tsx bench/journal/child.ts DUMP.json");
  process.exit(2);
}
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = await explainBytes(fileChunks(path));
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
process.stdout.write(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
    class: r.class,
    decisive: r.decisive,
  }) + "\n",
);
