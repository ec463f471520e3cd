// preflight.contracts: every declared contract flag is in the serve script; a missing one is
// traced through the script's history to the commit that dropped it, with the lines to restore.
import type { GitReader } from "../../ports/git/batched.js";
import { codeSpan } from "../../domain/report/code-span.js";
import { fail, pass, skip, warn, type Finding } from "../../domain/report/finding.js";
import { findFlag, parseFlagSpec } from "../../domain/launch/contract.js";
import { shellQuote } from "../../lib/shell-quote.js";
import type { Flag, ServeScript } from "../../domain/launch/model.js";
import { mask, maskUnlessReference } from "../../domain/redact/mask.js";
import { contractExample } from "../../domain/engine/flag-roles.js";
import { contextAround, countToken, traceDrop, type HistoryEntry, type Trace } from "./trace.js";

const CHECK = "preflight.contracts";
const short = (sha: string) => sha.slice(0, 10);

export interface ContractInput {
  reader: GitReader;
  file: string;
  /** the file's launch model: its engine's flags are what the contracts are checked against */
  script: ServeScript;
  specs: readonly string[];
  /** false on a shallow clone: the trace cannot run and says so */
  historyOk: boolean;
  /** the script's history, loaded once per script by the caller */
  history: () => Promise<HistoryEntry[]>;
  /** why history is not traced, when historyOk is false for another reason than a shallow clone */
  noTraceReason?: string;
}

export async function checkContracts(inp: ContractInput): Promise<Finding[]> {
  if (inp.specs.length === 0)
    return [
      skip(CHECK, `${inp.file}: no contract flags declared`, {
        file: inp.file,
        fix: `declare them under contracts.flags in deploy-gate.yml, e.g. ${contractExample(inp.script.engine?.kind ?? "vllm")}`,
      }),
    ];
  if (!inp.script.engine) return contractsAsText(inp);
  const builtBy = inp.script.engine.builtBy;
  if (builtBy)
    return [
      skip(CHECK, `${inp.file}: the engine's flags are built by \`${builtBy}\` when it runs: none is in the file`, {
        file: inp.file,
        fix: "check the contract flags on the host: deploy-gate verify reads the running engine's argv",
      }),
    ];
  const findings: Finding[] = [];
  const present: string[] = [];
  for (const spec of inp.specs) {
    const hit = findFlag(inp.script.engine.flags, spec);
    if (hit.status === "present") {
      present.push(spec);
      continue;
    }
    findings.push(await missingContract(inp, spec, hit.status, hit.flag));
  }
  if (present.length) {
    findings.unshift(
      pass(CHECK, `${inp.file}: ${present.length} of ${inp.specs.length} contract flags present`, {
        file: inp.file,
        data: { present },
      }),
    );
  }
  return findings;
}

async function missingContract(
  inp: ContractInput,
  spec: string,
  status: "missing" | "value-differs",
  flag: Flag | undefined,
): Promise<Finding> {
  const { name, value } = parseFlagSpec(spec);
  // The script's value of a secret flag (--api-key, --hf-token) is the secret itself: never shown; the
  // contract's own value is shown only when it names where the secret comes from ($VAR).
  const actual = mask(name, flag?.value ?? null);
  const expected = maskUnlessReference(name, value);
  const what =
    status === "missing" ? `${name} is missing` : `${name} is ${actual ?? "(no value)"}, the contract says ${expected}`;
  // a missing flag has no line of its own: the engine command is where it goes back
  const line = flag?.line ?? inp.script.engine?.line;
  const base = {
    // a flag from a vLLM --config file is reported where it is written
    file: flag?.file ?? inp.file,
    ...(line ? { line } : {}),
    data: { flag: name, expected, actual, status } as Record<string, unknown>,
  };
  if (!inp.historyOk) {
    return fail(
      CHECK,
      `${inp.file}: contract "${spec}" broken: ${what} (${inp.noTraceReason ?? "history not traced: shallow clone"})`,
      {
        ...base,
        fix:
          `add ${codeSpan(spec)} to the engine arguments in ${inp.file}` +
          (inp.noTraceReason ? "" : "; to find where it went, fetch full history (fetch-depth: 0) and rerun"),
      },
    );
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
  const inText = status === "missing" ? textLine(inp.script, name) : null;
  if (inText !== null) {
    return fail(
      CHECK,
      `${inp.file}: contract "${spec}" broken: ${name} is on line ${inText} but not in the engine command deploy-gate read`,
      {
        ...base,
        line: inText,
        evidence: [`${inp.file}:${inText}: ${inp.script.lines[inText - 1]?.trim() ?? ""}`],
        fix: `check that line ${inText} of ${inp.file} is part of the engine's command (a line after a comment or a blank line inside a \\ continuation ends the command), so the flag reaches the engine`,
      },
    );
  }
  if (!trace) {
    // histories are read without rename detection: a renamed script's history starts at its rename
    return fail(
      CHECK,
      `${inp.file}: contract "${spec}" broken: ${what}; it is nowhere in the history of ${inp.file} under this name (if the script was renamed, git log --follow -- ${shellQuote(inp.file)} shows its older history)`,
      {
        ...base,
        fix: `add ${codeSpan(spec)} to the engine arguments (after the image, among the other --flags) in ${inp.file}`,
      },
    );
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
  const view =
    parent && ctx
      ? `git show ${shellQuote(`${short(parent)}:${inp.file}`)} | sed -n '${Math.max(1, ctx.line - 3)},${ctx.line + 3}p'`
      : null;
  return fail(
    CHECK,
    `${inp.file}: contract "${spec}" broken: ${what}, dropped in ${short(trace.droppedIn.sha)} "${trace.droppedIn.subject}"`,
    {
      ...base,
      evidence,
      fix:
        `restore ${codeSpan(restoreLine)} in ${inp.file}` +
        (view ? ` (as in ${short(parent!)}: ${codeSpan(view)})` : "") +
        `, or undo that commit's change to the file: \`git show ${short(trace.droppedIn.sha)} -- ${shellQuote(inp.file)} | git apply -R\``,
    },
  );
}

/** The first non-comment line of the file that carries the flag (either spelling), or null. */
function textLine(script: ServeScript, name: string): number | null {
  const i = script.lines.findIndex((l) => countToken(l, name) > 0);
  return i < 0 ? null : i + 1;
}

/** No engine command found: say so, and check each contract flag against the file's text instead. */
function contractsAsText(inp: ContractInput): Finding[] {
  const found = inp.specs.map((spec) => ({ spec, line: textLine(inp.script, parseFlagSpec(spec).name) }));
  const missing = found.filter((f) => f.line === null).map((f) => f.spec);
  const how =
    "deploy-gate could not find the engine command (vllm serve, python -m vllm.entrypoints..., sglang, llama-server, or podman/docker run of an engine image)";
  const evidence = found.map((f) =>
    f.line === null
      ? `${f.spec}: not in the text`
      : `${f.spec}: line ${f.line} (as text): ${inp.script.lines[f.line - 1]?.trim() ?? ""}`,
  );
  const data = { asText: true, missing };
  if (missing.length) {
    return [
      fail(
        CHECK,
        `${inp.file}: ${how}; checked as text, ${missing.length} contract flag(s) are not in the file: ${missing.join(", ")}`,
        {
          file: inp.file,
          evidence,
          data,
          fix: `add ${missing.map((m) => codeSpan(m)).join(", ")} to the engine's arguments in ${inp.file}`,
        },
      ),
    ];
  }
  return [
    warn(CHECK, `${inp.file}: ${how}; checked as text, all ${inp.specs.length} contract flag(s) appear in the file`, {
      file: inp.file,
      evidence,
      data,
      fix: `if ${inp.file} starts the engine in a way deploy-gate does not read, open an issue with the launch line; the values were not checked`,
    }),
  ];
}
