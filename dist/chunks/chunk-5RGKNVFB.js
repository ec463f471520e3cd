#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  redact,
  stripControl
} from "./chunk-7ICKPVQF.js";

// src/domain/report/code-span.ts
function codeSpan(raw) {
  const text = raw.replace(/\r?\n/g, " ");
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  if (longest === 0) return `\`${text}\``;
  const ticks = "`".repeat(longest + 1);
  return `${ticks} ${text} ${ticks}`;
}
function splitCodeSpans(text) {
  const parts = [];
  let prose2 = 0;
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("`", i);
    if (open < 0) break;
    let n = 1;
    while (text[open + n] === "`") n++;
    let close = -1;
    for (let j = open + n; j < text.length; ) {
      const k = text.indexOf("`", j);
      if (k < 0) break;
      let m = 1;
      while (text[k + m] === "`") m++;
      if (m === n) {
        close = k;
        break;
      }
      j = k + m;
    }
    if (close < 0) {
      i = open + n;
      continue;
    }
    parts.push(text.slice(prose2, open), text.slice(open, close + n));
    prose2 = i = close + n;
  }
  parts.push(text.slice(prose2));
  return parts;
}

// src/domain/report/markdown-text.ts
var cell = (s) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
function fence(lines, lang = "text") {
  const body = lines.join("\n");
  const ticks = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}
${body}
${ticks}`;
}
function repoUrlOf(env) {
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, "");
  return server && env.GITHUB_REPOSITORY && /^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY) ? `${server}/${env.GITHUB_REPOSITORY}` : null;
}
var commitLink = (sha, ctx, shown = sha.slice(0, 10)) => ctx.repoUrl ? `[\`${shown}\`](${ctx.repoUrl}/commit/${sha})` : `\`${shown}\``;
function prose(text, ctx) {
  return splitCodeSpans(text).map((part, i) => {
    if (i % 2 === 1) return part;
    return part.replace(PROSE_TOKEN, (whole, mention, id) => {
      if (mention) return `\`${mention}\``;
      if (id) {
        const full = ctx.repoUrl ? ctx.shas?.find((s) => s.startsWith(id)) : void 0;
        return full ? commitLink(full, ctx, id) : id;
      }
      return `\\${whole}`;
    });
  }).join("");
}
var PROSE_TOKEN = /(?<![\w.@`-])([A-Za-z_][\w.-]*@\[?[A-Za-z0-9](?:[\w.:-]{0,250}[\w\]])?(?::\d+)?)(?![\w@`])|(?<![\w/`-])([0-9a-f]{7,40})(?![\w`-])|[\\*_[\]<>!~&]/g;
var COMMAND_START = /^(git|deploy-gate|npx|npm|sudo|systemctl|podman|journalctl|ssh|ssh-keygen|ssh-keyscan|apt-get|curl|mkdir|chmod|chown|rm|ls|cat|sed|grep)\s/;
function fixCommands(fix) {
  const out = [];
  splitCodeSpans(fix).forEach((part, i) => {
    if (i % 2 === 0 || !/^`[^`\n]+`$/.test(part)) return;
    const c = part.slice(1, -1).trim();
    if (COMMAND_START.test(c) && !out.includes(c)) out.push(c);
  });
  return out;
}
function knownShas(values) {
  const found = /* @__PURE__ */ new Set();
  const visit = (v, depth) => {
    if (typeof v === "string" && /^[0-9a-f]{40}$/.test(v)) found.add(v);
    else if (v && typeof v === "object" && depth < 4) for (const x of Object.values(v)) visit(x, depth + 1);
  };
  for (const v of values) visit(v, 0);
  return [...found];
}

// src/domain/report/fleet.ts
var ready = (r) => r.readyMs === null ? "\u2014" : `${(r.readyMs / 1e3).toFixed(1)} s`;
var kv = (r) => r.kvTokens === null ? "\u2014" : r.kvTokens.toLocaleString("en-US");
var MARK = {
  pass: "\u2705",
  warn: "\u26A0\uFE0F",
  fail: "\u274C",
  "rolled back": "\u21A9\uFE0F",
  "failed, rolled back": "\u274C",
  "rollback failed": "\u274C",
  "not touched": "\u23ED\uFE0F"
};
function fleetMarkdown(report) {
  if (!report.fleet?.length) return [];
  return [
    "| host | step | verdict | ready | KV tokens |",
    "|---|---|---|---|---|",
    ...report.fleet.map(
      (r) => `| ${cell(codeSpan(r.host))} | ${r.step ?? "\u2014"} | ${MARK[r.verdict]} ${r.verdict} | ${ready(r)} | ${kv(r)} |`
    ),
    ""
  ];
}
function fleetTerminal(report, lines, heading) {
  const rows = report.fleet;
  if (!rows?.length) return null;
  const w = Math.max(4, ...rows.map((r) => r.host.length));
  const out = [`${"host".padEnd(w)}  step  ${"verdict".padEnd(15)}  ${"ready".padStart(8)}  KV tokens`];
  for (const r of rows)
    out.push(
      `${r.host.padEnd(w)}  ${String(r.step ?? "\u2014").padEnd(4)}  ${r.verdict.padEnd(15)}  ${ready(r).padStart(8)}  ${kv(r)}`
    );
  for (const r of rows) {
    const own = report.findings.filter((f) => f.host === r.host);
    if (!own.length) continue;
    out.push("", heading(`\u2500\u2500 ${r.host}${r.step === null ? "" : ` (step ${r.step})`}: ${r.verdict}`));
    for (const f of own) out.push(...lines(f));
  }
  const fleetWide = report.findings.filter((f) => !f.host);
  if (fleetWide.length) out.push("", heading("\u2500\u2500 the endpoint (every host)"), ...fleetWide.flatMap(lines));
  return out;
}

// src/domain/report/paint.ts
var SGR = { red: "31", green: "32", yellow: "33", dim: "2", bold: "1", cyan: "36" };
function paint(on, code, text) {
  return on ? `\x1B[${code}m${text}\x1B[0m` : text;
}
function painter(on) {
  return (style, s) => paint(on, SGR[style], s);
}

// src/domain/report/terminal.ts
var LABEL = { pass: "\u2714 pass", fail: "\u2716 FAIL", warn: "\u25B2 warn", skip: "\u25CB skip" };
var COLOUR = { pass: "green", fail: "red", warn: "yellow", skip: "dim" };
function useColour(opts) {
  if (opts.noColor) return false;
  const force = opts.env.FORCE_COLOR;
  if (force !== void 0) return !["0", "false"].includes(force.toLowerCase());
  if (opts.env.NO_COLOR !== void 0 && opts.env.NO_COLOR !== "") return false;
  return opts.isTTY && opts.env.TERM !== "dumb";
}
function findingLines(f, paint2, width) {
  const out = [`${paint2(COLOUR[f.status], LABEL[f.status])}  ${f.check.padEnd(width)}  ${f.summary}`];
  if (f.status === "pass" && f.data?.dryRun !== true || f.status === "skip") {
    if (f.status === "skip" && f.fix) out.push(`${" ".repeat(8 + width)}${paint2("dim", `hint: ${f.fix}`)}`);
    return out;
  }
  const pad = " ".repeat(8);
  if (f.file) out.push(`${pad}${paint2("cyan", `at ${f.file}${f.line ? `:${f.line}` : ""}`)}`);
  for (const e of f.evidence ?? []) for (const l of e.split("\n")) out.push(`${pad}${paint2("dim", "\u2502")} ${l}`);
  if (f.fix) out.push(`${pad}${paint2("bold", "fix:")} ${f.fix}`);
  return out;
}
function renderTerminal(report, colour, quiet = false) {
  const paint2 = painter(colour);
  const width = Math.max(0, ...report.findings.map((f) => f.check.length));
  const head = [`deploy-gate ${report.command}`];
  if (report.endpoint) head.push(`endpoint ${report.endpoint}`);
  head.push(`${report.ref.name}${report.ref.sha ? ` ${report.ref.sha.slice(0, 10)}` : ""}`);
  head.push(`${(report.durationMs / 1e3).toFixed(2)}s`);
  const shown = quiet ? report.findings.filter((f) => f.status === "fail") : report.findings;
  const lines = quiet ? [] : [paint2("bold", head.join(" \xB7 ")), ""];
  const fleet = fleetTerminal(
    { ...report, findings: shown },
    (f) => findingLines(f, paint2, width),
    (h) => paint2("bold", h)
  );
  lines.push(...fleet ?? shown.flatMap((f) => findingLines(f, paint2, width)));
  const n = (s) => report.findings.filter((f) => f.status === s).length;
  const tally = `${n("fail")} failed, ${n("warn")} warnings, ${n("pass")} passed, ${n("skip")} skipped`;
  const verdict = report.verdict === "fail" ? paint2("red", "FAIL") : report.verdict === "warn" ? paint2("yellow", "PASS with warnings") : paint2("green", "PASS");
  lines.push(...lines.length ? [""] : [], `${paint2("bold", verdict)}  ${tally}`);
  return lines.join("\n") + "\n";
}

// src/lib/usage-error.ts
var UsageError = class extends Error {
};

// src/commands/spec.ts
var COMMAND_SPECS = [
  {
    name: "preflight",
    positionals: 0,
    summary: "check the serve scripts in this repository (no host needed)",
    details: "bash -n, shellcheck, the contract flags (traced through history when one is gone), dropped flags, the trap rules, the rollback ref.\nWith no deploy-gate.yml it finds the serve scripts itself.",
    examples: [
      "deploy-gate preflight",
      "deploy-gate preflight --endpoint archon --base v1.4.0",
      "deploy-gate preflight --json --report preflight.json"
    ]
  },
  {
    name: "run",
    positionals: 0,
    summary: "preflight, deploy over SSH, verify",
    details: "A preflight failure stops here (--skip-preflight to see what the host says). One SSH connection, a host-side lock,\nthe install files at the ref, a restart, the boot watched to readiness, then verify.",
    examples: [
      "deploy-gate run --endpoint archon --dry-run",
      "deploy-gate run --endpoint archon --summary summary.md",
      "deploy-gate run --endpoint archon --hosts gpu-b,gpu-c"
    ]
  },
  {
    name: "verify",
    positionals: 0,
    summary: "verify the live endpoint against the contracts (--ref TAG: rollback-tag verification)",
    details: "Default ref: the one recorded on the host by the last deploy.",
    examples: ["deploy-gate verify --endpoint archon", "deploy-gate verify --endpoint archon --ref v1.4.0"]
  },
  {
    name: "rollback",
    positionals: 0,
    summary: "deploy rollback.ref, then verify",
    examples: ["deploy-gate rollback --endpoint archon", "deploy-gate rollback --endpoint archon --ref v1.3.2"]
  },
  {
    name: "explain",
    args: "FILE|-",
    positionals: 1,
    summary: "diagnose a saved journalctl -o json dump, a plain log, or a response body",
    details: "Exit 0 when the log shows a ready or still-booting engine, 1 on a failure.",
    examples: ["deploy-gate explain journal.json", "deploy-gate explain -"]
  },
  {
    name: "logs",
    positionals: 0,
    summary: "the endpoint's journal, decoded, one boot at a time, with its diagnosis",
    details: "--boot current|previous|N (or --boot=-N), --since 30m|DATE, --follow until Ctrl-C, --json.",
    examples: [
      "deploy-gate logs --endpoint archon",
      "deploy-gate logs --endpoint archon --boot previous",
      "deploy-gate logs --endpoint archon --since 30m --follow",
      "deploy-gate logs --endpoint archon -n 50 --grep ERROR"
    ]
  },
  {
    name: "lock",
    args: "status|release|acquire",
    positionals: 1,
    summary: "who holds the endpoint's deploy lock; release it (--force when another run holds it); acquire it by hand (-m why)",
    examples: [
      "deploy-gate lock status --endpoint archon",
      "deploy-gate lock acquire --endpoint archon -m maintenance",
      "deploy-gate lock release --endpoint archon --force"
    ]
  },
  {
    name: "init",
    positionals: 0,
    summary: "write deploy-gate.yml for the serve scripts found here (never overwrites)",
    details: "Contract flags are prefilled from each script's current engine argv; review them, then run deploy-gate preflight.",
    examples: ["deploy-gate init", "deploy-gate init --commit", "deploy-gate init --config ci/deploy-gate.yml"]
  },
  {
    name: "completion",
    args: "bash|zsh|fish",
    positionals: 1,
    summary: "print a shell completion script for commands and options",
    details: "bash: source <(deploy-gate completion bash); zsh: save as _deploy-gate on $fpath; fish: save in ~/.config/fish/completions/.",
    examples: ["deploy-gate completion bash", "deploy-gate completion fish"]
  },
  {
    name: "schema",
    positionals: 0,
    summary: "print the JSON Schema of deploy-gate.yml",
    examples: ["deploy-gate schema"]
  },
  {
    name: "webhook",
    positionals: 0,
    summary: "serve Flagger's pre-rollout and rollout webhooks: verify over HTTP alone per call (--listen ADDR)",
    details: "POST {name, namespace, phase, metadata}: 200 pass, 412 a check failed, 503 could not judge or busy, 504 past --deadline,\n400 a malformed body. metadata.endpoint picks the endpoint; {name} and {namespace} in its url: are filled in.",
    examples: [
      "deploy-gate webhook --listen 127.0.0.1:8080",
      "deploy-gate webhook --listen :8080 --namespaces llm --deadline 5m"
    ]
  }
];
var COMMANDS = COMMAND_SPECS.map((c) => c.name);
var REPORTING = ["preflight", "run", "verify", "rollback"];
var REMOTE = ["run", "verify", "rollback", "logs", "lock"];
var DEPLOYING = ["run", "rollback"];
var OPTION_SPECS = [
  {
    name: "config",
    type: "string",
    arg: "FILE",
    help: "deploy-gate.yml (default: the nearest one up to the repository root, else discover the scripts); init: where to write it",
    commands: [...REPORTING, "logs", "lock", "init", "webhook"]
  },
  {
    name: "endpoint",
    type: "string",
    arg: "NAME",
    help: "one endpoint (default: all; run/verify/rollback/logs/lock: the config's only one)",
    commands: [...REPORTING, "logs", "lock"]
  },
  {
    name: "ref",
    type: "string",
    arg: "REF",
    help: "check the scripts at REF instead of the work tree (verify: the contracts at REF; rollback: the version to go back to, instead of rollback.ref)",
    commands: REPORTING
  },
  {
    name: "base",
    type: "string",
    arg: "REF",
    help: "what dropped-flags compares against (default: rollback.ref, else the commit before the last change)",
    commands: ["preflight", "run"]
  },
  {
    name: "json",
    type: "boolean",
    help: "print exactly the JSON report on stdout",
    commands: [...REPORTING, "explain", "logs", "lock"]
  },
  { name: "report", type: "string", arg: "FILE", help: "also write the JSON report to FILE", commands: REPORTING },
  {
    name: "summary",
    type: "string",
    arg: "FILE",
    help: "also write the markdown job summary to FILE",
    commands: REPORTING
  },
  { name: "quiet", type: "boolean", short: "q", help: "only the verdict and the failures", commands: REPORTING },
  {
    name: "no-color",
    type: "boolean",
    help: "no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it on)",
    commands: "all"
  },
  { name: "fail-on-warn", type: "boolean", help: "exit 1 on warnings too", commands: REPORTING },
  {
    name: "dry-run",
    type: "boolean",
    help: "connect, lock, show the files that would change and the commands; change nothing",
    commands: DEPLOYING
  },
  {
    name: "lock-wait",
    type: "string",
    arg: "DURATION",
    help: "wait this long for a held deploy lock (default: fail at once, naming the holder)",
    commands: DEPLOYING
  },
  {
    name: "skip-preflight",
    type: "boolean",
    help: "deploy even when preflight fails (to see what the host says)",
    commands: ["run"]
  },
  {
    name: "hosts",
    type: "string",
    arg: "A,B",
    help: "fleet endpoints (hosts:): only these hosts, names or globs ('gpu*'), e.g. to finish a halted rollout (logs: the one host to read)",
    commands: ["run", "verify", "rollback", "lock", "logs"]
  },
  {
    name: "boot",
    type: "string",
    arg: "WHICH",
    help: "current (default), previous, N, or --boot=-N (N before the current)",
    commands: ["logs"]
  },
  {
    name: "since",
    type: "string",
    arg: "TIME",
    help: "the window: 30m, 2h, YYYY-MM-DD[ HH:MM[:SS]], @EPOCH, today, yesterday",
    commands: ["logs"]
  },
  { name: "follow", type: "boolean", help: "stream new lines until Ctrl-C", commands: ["logs"] },
  {
    name: "lines",
    type: "string",
    short: "n",
    arg: "N",
    help: "show the boot's last N lines (--follow: of the backlog); the diagnosis still reads the whole boot",
    commands: ["logs"]
  },
  {
    name: "grep",
    type: "string",
    arg: "REGEX",
    help: "show only the lines matching REGEX (JavaScript syntax, case-sensitive)",
    commands: ["logs"]
  },
  {
    name: "force",
    type: "boolean",
    help: "release a lock another run holds (it names the holder)",
    commands: ["lock"]
  },
  {
    name: "url",
    type: "string",
    arg: "URL",
    help: "verify over HTTP alone at URL, no SSH: every check HTTP can prove; the host-only ones skip (an endpoint with url: and no host: does the same)",
    commands: ["verify"]
  },
  {
    name: "model",
    type: "string",
    arg: "NAME",
    help: "with --url: the served model name (default: the endpoint's model:, else the one /v1/models lists)",
    commands: ["verify"]
  },
  {
    name: "selector",
    type: "string",
    arg: "LABELS",
    help: "the engine's pods for kubernetes: endpoints, as kubectl -l takes it (e.g. a canary's pod-template-hash)",
    commands: ["verify"]
  },
  {
    name: "rollout-start",
    type: "string",
    arg: "TIME",
    help: "kubernetes: endpoints: when the rollout began (ISO 8601, @EPOCH, or a duration ago such as 15m); a pod whose engine started before it is the old version",
    commands: ["verify"]
  },
  {
    name: "listen",
    type: "string",
    arg: "ADDR",
    help: "HOST:PORT the webhook listens on (:8080 for every address)",
    commands: ["webhook"]
  },
  {
    name: "namespaces",
    type: "string",
    arg: "NS[,NS]",
    help: "the namespaces whose canaries the webhook judges (a payload from another gets 403); needed when url: fills {namespace}",
    commands: ["webhook"]
  },
  {
    name: "deadline",
    type: "string",
    arg: "DURATION",
    help: "the webhook's deadline per call, every request of its verify included (default 2m)",
    commands: ["webhook"]
  },
  {
    name: "message",
    type: "string",
    short: "m",
    arg: "MESSAGE",
    help: "lock acquire: why the endpoint is held; every deploy is refused with it until lock release",
    commands: ["lock"]
  },
  {
    name: "commit",
    type: "boolean",
    help: "commit the config it wrote (that file only), so the first preflight finds a clean tree",
    commands: ["init"]
  },
  {
    name: "connect-timeout",
    type: "string",
    arg: "DURATION",
    help: "SSH handshake deadline (default 20s)",
    commands: REMOTE
  },
  {
    name: "help",
    type: "boolean",
    short: "h",
    help: "this help (deploy-gate COMMAND --help: that command's)",
    commands: "all"
  },
  {
    name: "verbose",
    type: "boolean",
    short: "v",
    help: "print every command run, locally and over SSH, with its timing (also DEPLOY_GATE_TRACE=1)",
    commands: "all"
  },
  { name: "version", type: "boolean", short: "V", help: "the version", commands: "all" }
];
var appliesTo = (o, c) => o.commands === "all" || o.commands.includes(c);

// src/commands/options.ts
function parseHostList(v) {
  if (v === void 0) return null;
  const names = v.split(",").map((s) => s.trim()).filter(Boolean);
  if (!names.length || names.some((n) => !/^[A-Za-z0-9*?[\]][A-Za-z0-9_.:*?[\]-]*$/.test(n)))
    throw new UsageError(
      `--hosts "${v}": expected host names from the endpoint's hosts: or globs, comma-separated (e.g. --hosts gpu-a,gpu-b or --hosts 'gpu*')`
    );
  return [...new Set(names)];
}
var colourOf = (opts, io) => useColour({ noColor: opts.noColor, isTTY: io.isTTY, env: io.env });
function parseUrl(v) {
  if (v === void 0) return null;
  let u;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--url: expected http(s)://HOST:PORT, the endpoint as clients reach it`);
  }
  if (u.username || u.password)
    throw new UsageError("--url must not carry a user or password: put the endpoint's API key in DEPLOY_GATE_API_KEY");
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new UsageError(`--url: expected an http:// or https:// URL, got ${u.protocol}//`);
  return u.toString().replace(/\/+$/, "");
}
function parseInstant(v, now, duration) {
  if (v === void 0) return null;
  const t = v.trim();
  const ago = /^\d/.test(t) && !/^\d{4}-/.test(t) ? duration(t) : null;
  if (ago !== null) return now - ago;
  if (/^@\d{1,12}$/.test(t)) return Number(t.slice(1)) * 1e3;
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t) ? Date.parse(t) : NaN;
  if (Number.isFinite(at)) return at;
  throw new UsageError(
    `--rollout-start "${t.slice(0, 40)}": expected an ISO 8601 time with its zone (2026-12-03T02:40:00Z), @EPOCH, or a duration ago (15m)`
  );
}

// src/domain/report/sanitize.ts
var CONTINUATION = "\u21B3 ";
var LEGACY_COMMAND = /##\[/g;
var inert = (text) => text.replace(LEGACY_COMMAND, "#\u2060#[");
function sanitizeText(text) {
  const lines = inert(stripControl(redact(text))).split("\n");
  return lines.map((l, i) => i === 0 ? guardFirst(l) : `${CONTINUATION}${l}`).join("\n");
}
function sanitizeLine(line) {
  return sanitizeText(line);
}
var guardFirst = (l) => /^\s*::/.test(l) ? `${CONTINUATION}${l}` : l;
function deep(value) {
  if (typeof value === "string") return sanitizeText(value);
  if (Array.isArray(value)) return value.map(deep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControl(k), deep(v)]));
  return value;
}
function sanitizeFinding(f) {
  const out = deep(f);
  if (f.evidence)
    out.evidence = f.evidence.flatMap(
      (e) => inert(stripControl(redact(e))).split("\n").map(guardFirst)
    );
  return out;
}
function sanitizeReport(report) {
  return {
    ...report,
    ref: deep(report.ref),
    endpoint: report.endpoint,
    findings: report.findings.map(sanitizeFinding)
  };
}
var sanitizeValue = (value) => deep(value);

export {
  codeSpan,
  splitCodeSpans,
  cell,
  fence,
  repoUrlOf,
  commitLink,
  prose,
  fixCommands,
  knownShas,
  fleetMarkdown,
  paint,
  renderTerminal,
  COMMAND_SPECS,
  COMMANDS,
  OPTION_SPECS,
  appliesTo,
  UsageError,
  parseHostList,
  colourOf,
  parseUrl,
  parseInstant,
  sanitizeLine,
  sanitizeReport,
  sanitizeValue
};
