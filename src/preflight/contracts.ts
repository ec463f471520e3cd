// preflight.contracts: every declared contract flag is in the serve script; a missing one is
// traced through the script's history to the commit that dropped it, with the lines to restore.
import type { GitReader } from "../git/batched.js";
import { fail, pass, skip, type Finding } from "../report/finding.js";
import { findFlag, parseFlagSpec } from "../script/contract.js";
import type { Flag } from "../script/model.js";
import { contextAround, traceDrop, type HistoryEntry, type Trace } from "./trace.js";

const CHECK = "preflight.contracts";
const short = (sha: string) => sha.slice(0, 10);

export interface ContractInput {
  reader: GitReader;
  file: string;
  flags: Flag[];
  specs: readonly string[];
  /** false on a shallow clone: the trace cannot run and says so */
  historyOk: boolean;
  /** the script's history, loaded once per script by the caller */
  history: () => Promise<HistoryEntry[]>;
  /** why history is not traced, when historyOk is false for another reason than a shallow clone */
  noTraceReason?: string;
}

export async function checkContracts(inp: ContractInput): Promise<Finding[]> {
  if (inp.specs.length === 0) return [skip(CHECK, `${inp.file}: no contract flags declared`, { file: inp.file, fix: "declare them under contracts.flags in deploy-gate.yml, e.g. [\"--reasoning-parser qwen3\", \"--enable-auto-tool-choice\"]" })];
  const findings: Finding[] = [];
  const present: string[] = [];
  for (const spec of inp.specs) {
    const hit = findFlag(inp.flags, spec);
    if (hit.status === "present") {
      present.push(spec);
      continue;
    }
    findings.push(await missingContract(inp, spec, hit.status, hit.flag));
  }
  if (present.length) {
    findings.unshift(pass(CHECK, `${inp.file}: ${present.length} of ${inp.specs.length} contract flags present`, { file: inp.file, data: { present } }));
  }
  return findings;
}

async function missingContract(inp: ContractInput, spec: string, status: "missing" | "value-differs", flag: Flag | undefined): Promise<Finding> {
  const { name, value } = parseFlagSpec(spec);
  const what = status === "missing" ? `${name} is missing` : `${name} is ${flag?.value ?? "(no value)"}, the contract says ${value}`;
  const base = {
    file: inp.file,
    ...(flag ? { line: flag.line } : {}),
    data: { flag: name, expected: value, actual: flag?.value ?? null, status } as Record<string, unknown>,
  };
  if (!inp.historyOk) {
    return fail(CHECK, `${inp.file}: contract "${spec}" broken: ${what} (${inp.noTraceReason ?? "history not traced: shallow clone"})`, {
      ...base,
      fix: `add \`${spec}\` to the engine arguments in ${inp.file}` + (inp.noTraceReason ? "" : "; to find where it went, fetch full history (fetch-depth: 0) and rerun"),
    });
  }
  const history = await inp.history();
  // A changed value is traced by the flag-and-value text; a missing flag by its name.
  const tokens = status === "missing" ? [name] : [`${name} ${value}`, `${name}=${value}`];
  let trace: Trace | null = null;
  let token = tokens[0]!;
  for (const t of tokens) {
    trace = traceDrop(history, t);
    if (trace) {
      token = t;
      break;
    }
  }
  if (!trace) {
    return fail(CHECK, `${inp.file}: contract "${spec}" broken: ${what}; it was never in this script's history`, {
      ...base,
      fix: `add \`${spec}\` to the engine arguments (after the image, among the other --flags) in ${inp.file}`,
    });
  }
  const parent = trace.droppedIn.parents[0] ?? null;
  const before = parent ? await inp.reader.show(parent, inp.file) : null;
  const ctx = before ? contextAround(before, token) : null;
  base.data.droppedIn = trace.droppedIn.sha;
  base.data.lastPresent = parent;
  base.data.introducedIn = trace.introducedIn?.sha ?? null;
  const evidence = [
    `dropped in ${short(trace.droppedIn.sha)} (${trace.droppedIn.date}) "${trace.droppedIn.subject}"`,
    ...trace.removedLines.map((l) => `  - ${l}`),
  ];
  if (parent && ctx) evidence.push(`last present in ${short(parent)}, ${inp.file} line ${ctx.line}:`, ...ctx.excerpt);
  const restoreLine = trace.removedLines[0]?.trim() ?? spec;
  const view = parent && ctx ? `git show ${short(parent)}:${inp.file} | sed -n '${Math.max(1, ctx.line - 3)},${ctx.line + 3}p'` : null;
  return fail(CHECK, `${inp.file}: contract "${spec}" broken: ${what}, dropped in ${short(trace.droppedIn.sha)} "${trace.droppedIn.subject}"`, {
    ...base,
    evidence,
    fix:
      `restore \`${restoreLine}\` in ${inp.file}` +
      (view ? ` (as in ${short(parent!)}: \`${view}\`)` : "") +
      `, or undo that commit's change to the script: \`git show ${short(trace.droppedIn.sha)} -- ${inp.file} | git apply -R\``,
  });
}
