// Measured in its own process so its peak RSS is its own: streams a dump through explain and reports.
import { explainStream } from "../../src/explain/explain.js";
import { fileLines } from "../../src/explain/lines.js";

const path = process.argv[2];
if (!path) {
  console.error("usage: node --import tsx bench/journal/child.ts DUMP.json");
  process.exit(2);
}
const t0 = performance.now();
const r = await explainStream(fileLines(path));
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, maxRssKiB: process.resourceUsage().maxRSS, class: r.class, decisive: r.decisive }) + "\n");
