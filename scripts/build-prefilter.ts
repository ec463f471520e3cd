// Builds the diagnosis's literal automaton (src/domain/diagnosis/prefilter-literals.ts) into
// src/domain/diagnosis/prefilter-table.generated.ts (compact, base64), so explain does not build it from the strings on
// every start. The output is committed; test/domain/diagnosis/prefilter-table.test.ts fails when it is stale.
// Run: npm run build:prefilter
import { writeFileSync } from "node:fs";
import { prefilterTableSource } from "../src/domain/diagnosis/prefilter-source.js";

const out = "src/domain/diagnosis/prefilter-table.generated.ts";
const text = prefilterTableSource();
writeFileSync(out, text);
process.stdout.write(`${out}: ${text.length} characters\n`);
