#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  require_dist
} from "./chunk-SDA2ORHP.js";
import {
  Diagnoser,
  JournalDecoder,
  advice,
  authMismatchDiagnosis,
  belowAdvice,
  bootPhase,
  isReadyMarker,
  messageBytes
} from "./chunk-3NKE7SWH.js";
import {
  cleanLine
} from "./chunk-7ICKPVQF.js";
import {
  __toESM,
  closest
} from "./chunk-ZMUO5JYW.js";

// src/domain/report/finding.ts
function verdictOf(findings) {
  if (findings.some((f) => f.status === "fail")) return "fail";
  if (findings.some((f) => f.status === "warn")) return "warn";
  return "pass";
}
function exitCodeOf(verdict, failOnWarn = false) {
  return verdict === "fail" || failOnWarn && verdict === "warn" ? 1 : 0;
}
var undecided = (findings) => findings.some((f) => f.status === "fail" && f.data?.undecided === true);
var reportExitCode = (r, failOnWarn = false) => undecided(r.findings) ? 2 : exitCodeOf(r.verdict, failOnWarn);
var pass = (check, summary, extra = {}) => ({
  check,
  status: "pass",
  summary,
  ...extra
});
var fail = (check, summary, extra = {}) => ({
  check,
  status: "fail",
  summary,
  ...extra
});
var warn = (check, summary, extra = {}) => ({
  check,
  status: "warn",
  summary,
  ...extra
});
var skip = (check, summary, extra = {}) => ({
  check,
  status: "skip",
  summary,
  ...extra
});

// src/stages/deploy/diagnosis-finding.ts
function diagnosisFinding(d, check = "deploy.diagnosis") {
  const evidence = d.decisive ? [d.decisive, ...d.evidence.filter((e) => e !== d.decisive)] : d.evidence;
  const extra = {
    evidence,
    data: {
      class: d.class,
      decisive: d.decisive,
      plan: d.plan,
      oom: d.oom,
      specDecode: d.specDecode,
      // a failure under the engine: which layer failed and what its fix names
      ...d.below ? { layer: d.below.layer, facts: d.below.facts } : {}
    },
    ...d.fix ? { fix: d.fix } : {}
  };
  if (d.class === "ready") return pass(check, d.summary, extra);
  if (d.class === "booting") return warn(check, d.summary, extra);
  return fail(check, `${d.class}: ${d.summary}`, extra);
}

// src/stages/context.ts
var apiKeyOf = (ctx, env = process.env) => (ctx.apiKey !== void 0 ? ctx.apiKey : env.DEPLOY_GATE_API_KEY) || void 0;

// src/lib/shell-quote.ts
var SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
function shellQuote(arg) {
  if (arg.includes("\0")) throw new Error("a shell argument cannot contain a NUL byte: remove it from the command");
  if (arg !== "" && SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
function shellJoin(argv) {
  if (argv.length === 0) throw new Error("empty command: pass at least the program name");
  return argv.map(shellQuote).join(" ");
}

// src/stages/deploy/diagnose-host.ts
var MARK = "@@deploy-gate-facts:";
function portOwnerScript(port) {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`not a port: ${port}`);
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return [
    `inodes=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4=="0A" && substr($2, length($2)-4)==":${hex}" {print $10}' | sort -u)`,
    `for i in $inodes; do for fd in /proc/[0-9]*/fd/*; do [ "$(readlink "$fd" 2>/dev/null)" = "socket:[$i]" ] || continue; p=\${fd#/proc/}; p=\${p%%/*}; echo "pid=$p comm=$(cat /proc/$p/comm 2>/dev/null | tr ' ' _) exe=$(readlink /proc/$p/exe 2>/dev/null | sed 's/ (deleted)$//; s,.*/,,' | tr ' ' _) name=$(tr '\\0' '\\n' < /proc/$p/cmdline 2>/dev/null | sed -n '/^-n$/{n;p;q;}') cgroup=$(sed -n '$s/^[0-9]*:[^:]*://p' /proc/$p/cgroup 2>/dev/null) cmd=$(tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -c1-200)"; done; done | sort -u | head -5`
  ].join("; ");
}
function hostFactsScript(m, service) {
  const f = m.facts;
  if (f.what === "port-in-use" && f.port) return `echo ${MARK}port; ${portOwnerScript(f.port)}`;
  if (f.what === "image-not-found")
    return `echo ${MARK}images; ${m.layer === "docker" ? "docker" : "podman"} images --format '{{.Repository}}:{{.Tag}}' 2>/dev/null | head -50`;
  if (f.what === "user")
    return `echo ${MARK}user; ${shellJoin(["systemctl", "show", "-p", "User", "--value", "--", service])}`;
  return null;
}
function describeOwner(line) {
  const m = /^pid=(\d+) comm=(\S*) (?:exe=(\S*) )?name=(\S*) cgroup=(\S*) cmd=(.*)$/.exec(line.trim());
  if (!m) return null;
  const [, pid, comm, exe, name, cgroup, cmd] = m;
  if ((exe || comm) === "conmon" && name) return `container ${name} (conmon pid ${pid})`;
  const unit = /(?<![\w@.:-])([\w@.:-]+\.(?:service|scope))$/.exec(cgroup)?.[1];
  const named = !!comm && cmd.trim().split(/\s+/).slice(0, 2).some((w) => w.split("/").pop().startsWith(comm));
  const who = `${(named ? comm : exe || comm) || "a process"} (pid ${pid}: ${cmd.trim().slice(0, 120)})`;
  return unit ? `${who} in ${unit}` : who;
}
function parseHostFacts(text) {
  const out = { portOwner: null, localImages: [], unitUser: null };
  let section = "";
  for (const line of text.split("\n")) {
    if (line.startsWith(MARK)) {
      section = line.slice(MARK.length).trim();
      continue;
    }
    const t = line.trim();
    if (!t) continue;
    if (section === "port") out.portOwner ??= describeOwner(t);
    else if (section === "images" && !t.startsWith("<none>")) out.localImages.push(t);
    else if (section === "user") out.unitUser = t;
  }
  return out;
}
async function lookupHostFacts(host, m, service) {
  const script = hostFactsScript(m, service);
  if (!script) return null;
  const r = await host.runShell(script, { timeoutMs: 3e4, maxOutputBytes: 1 << 20 }).catch(() => null);
  return r ? parseHostFacts(r.stdout) : null;
}

// src/stages/deploy/poll-command.ts
var SECTION = "@@deploy-gate:";
var UNIT_PROPS = ["ActiveState", "SubState", "NRestarts", "Result", "ExecMainStatus", "ExecMainCode"];
var INSPECT_FORMAT = "{{.Id}} {{.State.Status}} {{.State.ExitCode}} {{.Created}}";
function journalArgv(t, extra = []) {
  const from = t.cursor ? [`--after-cursor=${t.cursor}`] : [`--since=@${t.sinceHostS}`];
  return [
    "journalctl",
    "-o",
    "json",
    "--no-pager",
    ...extra,
    ...from,
    ...t.container === null ? [] : [`CONTAINER_NAME=${t.container}`, "+"],
    `_SYSTEMD_UNIT=${t.service}`,
    "+",
    `UNIT=${t.service}`
  ];
}
var INSTANCE_PROPS = ["InvocationID", "MainPID", "ExecMainStartTimestamp", "ExecMainStatus"];
function instanceScript(service) {
  const props = ["-p", INSTANCE_PROPS.join(","), "--", service];
  return `${shellJoin(["systemctl", "show", "--timestamp=us+utc", ...props])} 2>/dev/null || TZ=UTC ${shellJoin(["systemctl", "show", ...props])}`;
}
function inspectArgv(container3, cli = "podman") {
  return [cli, "container", "inspect", "--format", INSPECT_FORMAT, "--", container3];
}
function unitArgv(service) {
  return ["systemctl", "show", "-p", UNIT_PROPS.join(","), "--", service];
}
var END = "end";
var POLL_SECTIONS = ["unit", "ps", "journal"];
function pollScript(t) {
  const section = (name, command) => `echo ${SECTION}${name}; ${command} 2>&1; echo ${SECTION}rc=$?`;
  return [
    `echo ${SECTION}now; date +%s%N`,
    section("unit", shellJoin(unitArgv(t.service))),
    section(
      "ps",
      t.container === null ? `{ ${instanceScript(t.service)}; }` : shellJoin(inspectArgv(t.container, t.cli))
    ),
    section("journal", shellJoin(journalArgv(t, ["--show-cursor"]))),
    `echo ${SECTION}${END}`
  ].join("; ");
}
var MARK_SCRIPT = `date +%s%N; journalctl -n 0 --show-cursor --no-pager 2>/dev/null; true`;

// src/stages/deploy/diagnosis-refine.ts
var SIGNALLED = /Shutting down|Received signal|SIGTERM|Terminated/;
function refineDiagnosis(d, failure, lastEngineLines, unit) {
  const noEngineFault = d.class === "booting" || d.class === "clean-exit" || d.class === "unknown" || d.class === "crash-loop";
  const vanished = failure === "container-gone" || failure === "container-exited" || failure === "restarting" || failure === "unit-stopped";
  const signalled = lastEngineLines.slice(-3).some((l) => SIGNALLED.test(l));
  if (!noEngineFault || !vanished || !signalled || d.attempts.filter((a2) => a2.endedAt !== null).length > 2) return d;
  const a = advice("container-removed", {
    decisive: null,
    oom: null,
    phase: d.phase,
    attempts: d.attempts,
    startLimit: false,
    unit,
    kv: null,
    dynamo: null
  });
  const decisive = lastEngineLines.slice(-3).find((l) => SIGNALLED.test(l)) ?? null;
  return {
    ...d,
    class: "container-removed",
    decisive,
    summary: `the engine (phase: ${d.phase ?? "?"}) was stopped by a signal with no failure of its own and its container ${failure === "container-exited" ? "exited" : "vanished"}: ${unit} was stopped from outside`,
    fix: a.fix,
    evidence: [...lastEngineLines.slice(-4), ...d.evidence].slice(0, 16)
  };
}

// src/stages/deploy/diagnose.ts
function diagnoseJournal(json, w, facts = null) {
  const decoder = new JournalDecoder();
  const diag = new Diagnoser({ unit: w.service, nRestarts: w.nRestarts ?? void 0 });
  for (const line of w.restartEvidence ?? []) diag.pushLine(line);
  const engine = [];
  const take = (recs) => {
    for (const rec of recs) {
      diag.pushRecord(rec);
      if (rec.container) {
        engine.push(rec.text);
        if (engine.length > 8) engine.shift();
      }
    }
  };
  for (const line of json.split("\n")) take(decoder.push(line));
  take(decoder.flush());
  const d = refineDiagnosis(diag.finish(), w.failure, engine, w.service);
  if (!d.below) return d;
  const loopNote = / \(crash loop: .*\)$/.exec(d.summary)?.[0] ?? "";
  const a = belowAdvice(d.below, {
    install: w.install,
    configFile: w.configFile,
    service: w.service,
    portOwner: facts?.portOwner ?? null,
    localImages: facts?.localImages,
    unitUser: facts?.unitUser ?? null,
    engine: d.engine
  });
  return { ...d, summary: a.summary + loopNote, fix: a.fix };
}
var UNDECIDED = /* @__PURE__ */ new Set(["unknown", "booting", "clean-exit"]);
var REREAD_MS = 1e3;
var EXEC_STEP_ONLY = /Main process exited, code=exited, status=2[0-4][0-9]\/[A-Z_]+$/;
var SETTLE_MS = 15e3;
async function diagnoseDeploy(host, w) {
  const argv = journalArgv({
    service: w.service,
    container: w.container,
    cursor: w.cursor,
    sinceHostS: Math.floor(w.startedAtHostMs / 1e3)
  });
  const read = async () => (await host.run(argv, { timeoutMs: 6e4, maxOutputBytes: 64 << 20 })).stdout;
  let json = await read();
  let d = diagnoseJournal(json, w);
  const until = Date.now() + SETTLE_MS;
  let same = 0;
  const thin = (x) => UNDECIDED.has(x.class) || EXEC_STEP_ONLY.test(x.decisive ?? "");
  while (thin(d) && w.failure !== "timeout" && (same < 3 || !UNDECIDED.has(d.class)) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, REREAD_MS));
    const again = await read();
    same = again === json ? same + 1 : 0;
    json = again;
    d = diagnoseJournal(json, w);
  }
  if (!d.below) return d;
  const facts = await lookupHostFacts(host, d.below, w.service);
  return facts ? diagnoseJournal(json, w, facts) : d;
}

// src/stages/deploy/install-plan.ts
import { createHash } from "node:crypto";

// src/domain/host-output.ts
var normMode = (mode) => parseInt(mode, 8).toString(8).padStart(4, "0");
function parseHostCopies(sumOut, statOut) {
  const out = /* @__PURE__ */ new Map();
  for (const l of sumOut.split("\n")) {
    const m = /^\\?([0-9a-f]{64}) [ *](.+)$/.exec(l);
    if (m) out.set(m[2], { sha256: m[1], mode: null });
  }
  for (const l of statOut.split("\n")) {
    const m = /^([0-7]{3,4}) (.+)$/.exec(l);
    if (m) out.set(m[2], { sha256: out.get(m[2])?.sha256 ?? null, mode: normMode(m[1]) });
  }
  return out;
}
function parsePodmanTime(text) {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))? ?(?:Z|([+-])(\d{2}):?(\d{2}))/.exec(text.trim());
  if (!m) return null;
  const base = Date.parse(`${m[1]}T${m[2]}Z`);
  if (Number.isNaN(base)) return null;
  const frac = m[3] ? Number(`0.${m[3]}`) * 1e3 : 0;
  const offset = m[4] ? (Number(m[5]) * 60 + Number(m[6])) * 6e4 * (m[4] === "-" ? -1 : 1) : 0;
  return base + frac - offset;
}
function unitStartMs(value) {
  const t = /^(?:\w+ )?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(\.\d+)? UTC$/.exec(value.trim());
  const at2 = t ? parsePodmanTime(`${t[1]}${t[2] ?? ""} +0000`) : null;
  return at2 === null ? null : t[2] ? at2 : at2 + 999;
}

// src/domain/host-state.ts
var HOST_STATE_DIR = ".deploy-gate";
var statePath = (endpoint) => `${HOST_STATE_DIR}/state/${endpoint}.json`;
function parseStateRecord(text) {
  try {
    const v = JSON.parse(text);
    if (v.schema !== 1 || typeof v.ref !== "string" || typeof v.sha !== "string" || typeof v.deployedAt !== "number")
      return null;
    return {
      schema: 1,
      endpoint: v.endpoint ?? "?",
      ref: v.ref,
      sha: v.sha,
      deployedAt: v.deployedAt,
      by: v.by ?? "?",
      files: v.files ?? [],
      previous: v.previous ?? null
    };
  } catch {
    return null;
  }
}

// src/stages/deploy/install-plan.ts
var sha256 = (content) => createHash("sha256").update(content).digest("hex");
var sameMode = (a, b) => parseInt(a, 8) === parseInt(b, 8);
function isUnitFile(path) {
  return /\.(service|socket|timer|mount|path|target|container|slice)$/.test(path) || /^\/etc\/systemd\//.test(path);
}
function planInstall(files, host) {
  return files.map((f) => {
    const h = host.get(f.to);
    const change = !h?.sha256 ? "new" : h.sha256 !== f.sha256 ? "content" : !h.mode || !sameMode(h.mode, f.mode) ? "mode" : "same";
    return { ...f, change };
  });
}
function nextStateRecord(old, now) {
  const previous = old ? old.sha === now.sha ? old.previous : { ref: old.ref, sha: old.sha, deployedAt: old.deployedAt } : null;
  return {
    schema: 1,
    endpoint: now.endpoint,
    ref: now.ref,
    sha: now.sha,
    deployedAt: now.deployedAt,
    by: now.by,
    files: now.files.map((f) => ({ to: f.to, sha256: f.sha256, mode: normMode(f.mode) })),
    previous
  };
}

// src/stages/deploy/install.ts
var CMD_TIMEOUT_MS = 3e4;
var InstallError = class extends Error {
};
async function readInstallFiles(ctx) {
  const items = ctx.endpoint.install ?? [];
  return Promise.all(
    items.map(async (item) => {
      const path = ctx.repoPath(item.from);
      const content = await ctx.reader.showBytes(ctx.sha, path);
      if (content === null)
        throw new InstallError(
          `${path} does not exist at ${ctx.ref} (${ctx.sha.slice(0, 10)}): commit it, or fix install.from in ${ctx.configFile}`
        );
      return { from: path, to: item.to, mode: normMode(item.mode), content, sha256: sha256(content) };
    })
  );
}
async function readHostSide(host, endpoint, files) {
  const paths = files.map((f) => f.to);
  const q = paths.length ? ` -- ${paths.map(shellQuote).join(" ")}` : "";
  const script = [
    "date +%s",
    "echo @@sum",
    paths.length ? `sha256sum${q} 2>/dev/null` : "true",
    "echo @@stat",
    paths.length ? `stat -c '%a %n'${q} 2>/dev/null` : "true",
    "echo @@state",
    `cat ${shellQuote(statePath(endpoint))} 2>/dev/null`,
    "true"
  ].join("; ");
  const r = await host.runShell(script, { timeoutMs: CMD_TIMEOUT_MS });
  const [head, rest = ""] = r.stdout.split("@@sum\n");
  const [sum = "", rest2 = ""] = rest.split("@@stat\n");
  const [stat = "", state = ""] = rest2.split("@@state\n");
  const hostNowS = Number(head.trim());
  if (!Number.isFinite(hostNowS) || hostNowS <= 0)
    throw new InstallError(`reading the host's copies failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`);
  return { planned: planInstall(files, parseHostCopies(sum, stat)), old: parseStateRecord(state), hostNowS };
}
async function install(ctx, by) {
  const files = await readInstallFiles(ctx);
  const { planned, old, hostNowS } = await readHostSide(ctx.host, ctx.name, files);
  const written = planned.filter((f) => f.change !== "same");
  const dirs = [
    .../* @__PURE__ */ new Set([
      ...written.map((f) => f.to.replace(/\/[^/]*$/, "") || "/"),
      statePath(ctx.name).replace(/\/[^/]*$/, "")
    ])
  ];
  const mk = await ctx.host.run(["mkdir", "-p", "--", ...dirs], { timeoutMs: CMD_TIMEOUT_MS });
  if (mk.code !== 0)
    throw new InstallError(
      `${shellJoin(["mkdir", "-p", ...dirs])} failed: ${mk.stderr.trim()}; check the SSH user may write there`
    );
  for (const f of written)
    await ctx.host.writeFile(f.to, f.content, parseInt(f.mode, 8), { timeoutMs: CMD_TIMEOUT_MS });
  const record = nextStateRecord(old, {
    endpoint: ctx.name,
    ref: ctx.ref,
    sha: ctx.sha,
    deployedAt: hostNowS,
    by,
    files
  });
  await ctx.host.writeFile(statePath(ctx.name), `${JSON.stringify(record, null, 2)}
`, 420, {
    timeoutMs: CMD_TIMEOUT_MS
  });
  return { planned, written, unitChanged: written.some((f) => isUnitFile(f.to)), record };
}
async function diffAgainstHost(host, f) {
  if (f.change === "mode") return `mode of ${f.to} becomes ${f.mode}`;
  const argv = [
    "diff",
    "-u",
    "--label",
    `host:${f.to}`,
    "--label",
    `${f.from} (ref)`,
    f.change === "new" ? "/dev/null" : f.to,
    "-"
  ];
  const r = await host.run(argv, { stdin: f.content, timeoutMs: CMD_TIMEOUT_MS, maxOutputBytes: 1 << 20 });
  return r.stdout.trimEnd() || `${f.to}: ${f.change}`;
}

// src/stages/deploy/poll-parse.ts
function splitSections(text) {
  const out = /* @__PURE__ */ new Map();
  let cur = null;
  for (const line of text.split("\n")) {
    if (line.startsWith(SECTION)) {
      const name = line.slice(SECTION.length);
      const rc = /^rc=(\d+)$/.exec(name);
      if (rc && cur) cur.rc = Number(rc[1]);
      else if (!rc) out.set(name, cur = { body: [], rc: null });
      continue;
    }
    cur?.body.push(line);
  }
  return out;
}
var int = (v) => v !== void 0 && /^-?\d+$/.test(v) ? Number(v) : null;
function parseUnitShow(lines) {
  const kv = /* @__PURE__ */ new Map();
  for (const l of lines) {
    const i = l.indexOf("=");
    if (i > 0) kv.set(l.slice(0, i), l.slice(i + 1));
  }
  if (!kv.has("ActiveState")) return null;
  return {
    activeState: kv.get("ActiveState") ?? "",
    subState: kv.get("SubState") ?? "",
    nRestarts: int(kv.get("NRestarts")),
    result: kv.get("Result") ?? "",
    execMainStatus: int(kv.get("ExecMainStatus")),
    execMainCode: kv.get("ExecMainCode") ?? ""
  };
}
function parsePs(lines) {
  if (lines.some((l) => l.startsWith("InvocationID="))) return parseInstance(lines);
  let best = null;
  for (const l of lines) {
    const m = /^([0-9a-f]{12,64}) (\S+) (-?\d+) (.+)$/.exec(l.trim());
    if (!m) continue;
    const createdAtMs = parsePodmanTime(m[4]);
    if (createdAtMs === null) continue;
    const c = { id: m[1], state: m[2], exitCode: Number(m[3]), createdAtMs };
    if (!best || c.createdAtMs > best.createdAtMs) best = c;
  }
  return best;
}
function parseInstance(lines) {
  const kv = /* @__PURE__ */ new Map();
  for (const l of lines) {
    const i = l.indexOf("=");
    if (i > 0) kv.set(l.slice(0, i), l.slice(i + 1).trim());
  }
  const id = kv.get("InvocationID") ?? "";
  const createdAtMs = unitStartMs(kv.get("ExecMainStartTimestamp") ?? "");
  if (!/^[0-9a-f]{32}$/.test(id) || createdAtMs === null) return null;
  const pid = int(kv.get("MainPID"));
  return {
    id,
    process: true,
    state: pid !== null && pid > 0 ? "running" : "exited",
    exitCode: int(kv.get("ExecMainStatus")),
    createdAtMs
  };
}
function parseJournalChunk(lines) {
  const json = [];
  const messages = [];
  const containers = /* @__PURE__ */ new Set();
  let cursor = null;
  for (const l of lines) {
    if (l.startsWith("-- cursor: ")) cursor = l.slice(11).trim();
    if (!l.startsWith("{")) continue;
    json.push(l);
    try {
      const rec = JSON.parse(l);
      const bytes = messageBytes(rec.MESSAGE);
      if (bytes) {
        for (const part of bytes.toString("utf8").split("\n")) if (part.trim()) messages.push(cleanLine(part));
      }
      if (typeof rec.__CURSOR === "string") cursor = rec.__CURSOR;
      if (typeof rec.CONTAINER_NAME === "string") containers.add(rec.CONTAINER_NAME);
    } catch {
    }
  }
  return { json, messages, containers: [...containers], cursor };
}
function pollCompleteness(s, t) {
  if (t.timedOut) return "the poll command timed out";
  if (!s.get("now")?.body.some((l) => /^\d+$/.test(l.trim()))) return "no host clock in the answer";
  const cut = t.truncated === true;
  for (const name of POLL_SECTIONS) {
    if (cut && name === "journal" && s.has(name)) continue;
    const sec = s.get(name);
    if (!sec) return `the answer stopped before its ${name} section`;
    if (sec.rc === null) return `the answer stopped inside its ${name} section`;
  }
  if (!cut && !s.has(END)) return "the answer has no end line";
  if (!cut && t.code !== 0)
    return `the poll command ended without an exit code (${t.code === null ? "channel or connection lost" : `exit ${t.code}`})`;
  return null;
}
function parsePoll(text, transport = { code: 0 }) {
  const s = splitSections(text);
  const errors = [];
  const now = s.get("now")?.body.find((l) => /^\d+$/.test(l.trim()));
  const unitSec = s.get("unit");
  const unit = unitSec ? parseUnitShow(unitSec.body) : null;
  if (!unit) errors.push(`systemctl show gave no unit state: ${unitSec?.body.join(" ").trim() || "no output"}`);
  const ps = s.get("ps");
  const psText = ps?.body.join(" ").trim() ?? "";
  if (ps && ps.rc !== 0 && !/no such (?:container|object)/i.test(psText))
    errors.push(
      `${/--timestamp|InvocationID/.test(psText) ? "systemctl show (the unit's run)" : "container inspect"} failed (exit ${ps.rc}): ${psText}`
    );
  return {
    hostNowMs: now ? Math.floor(Number(BigInt(now.trim()) / 1000000n)) : null,
    unit,
    container: ps ? parsePs(ps.body) : null,
    journal: parseJournalChunk(s.get("journal")?.body ?? []),
    errors,
    incomplete: pollCompleteness(s, transport)
  };
}
function parseMark(text) {
  const lines = text.split("\n");
  const ns = lines.find((l) => /^\d{12,}$/.test(l.trim()));
  const cur = lines.find((l) => l.startsWith("-- cursor: "));
  return {
    hostNowMs: ns ? Math.floor(Number(BigInt(ns.trim()) / 1000000n)) : null,
    cursor: cur ? cur.slice(11).trim() : null
  };
}

// src/stages/deploy/stop-hang.ts
function parsePs2(text) {
  const rows = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(\S+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (m) rows.push({ pid: Number(m[1]), stat: m[2], etime: m[3], comm: m[4] });
  }
  return rows;
}
function parseTimespan(text) {
  const t = text.trim();
  if (t === "" || t === "infinity") return null;
  const units = { us: 1e-3, ms: 1, s: 1e3, min: 6e4, h: 36e5, d: 864e5 };
  let total = 0;
  for (const part of t.split(/\s+/)) {
    const m = /^(\d+(?:\.\d+)?)(us|ms|s|min|h|d)$/.exec(part);
    if (!m) return null;
    total += Number(m[1]) * units[m[2]];
  }
  return total;
}
function classifyStopHang(rows, service, waitedMs) {
  const line = (r) => `${r.pid} ${r.stat} ${r.etime} ${r.comm}`;
  const d = rows.filter((r) => r.stat.startsWith("D"));
  const rest = rows.filter((r) => !r.stat.startsWith("D"));
  const evidence = [...d, ...rest].map(line);
  const waited = `${Math.round(waitedMs / 1e3)} s`;
  if (d.length > 0) {
    return {
      kind: "uninterruptible",
      evidence,
      summary: `${service} did not stop within ${waited}: ${d.length} process(es) in D state (${d.map((r) => `${r.comm} ${r.pid}`).join(", ")}), uninterruptible: wait, do not declare a GPU wedge`
    };
  }
  if (rest.length > 0) {
    const z = rest.filter((r) => r.stat.startsWith("Z"));
    return {
      kind: "running",
      evidence,
      summary: `${service} did not stop within ${waited}: ${rest.length} process(es) still there${z.length ? ` (${z.length} zombie, waiting for its parent)` : ""}, none in D state: the stop signal is ignored or still being handled`
    };
  }
  return {
    kind: "gone",
    evidence,
    summary: `${service} did not stop within ${waited} but none of its processes is left: systemd is finishing ExecStopPost/cleanup`
  };
}
function stopHangScript(service) {
  const s = shellQuote(service);
  return [
    `cg=$(systemctl show -p ControlGroup --value -- ${s})`,
    `pids=$( [ -n "$cg" ] && find "/sys/fs/cgroup$cg" -name cgroup.procs -exec cat {} + 2>/dev/null | tr '\\n' ',' | sed 's/,$//')`,
    `[ -n "$pids" ] && ps -o pid,stat,etime,comm -p "$pids"`,
    `true`
  ].join("\n");
}

// src/stages/deploy/restart.ts
var SHORT_MS = 3e4;
var RESTART_TIMEOUT_MS = 6 * 6e4;
async function hostMark(host) {
  const r = await host.runShell(MARK_SCRIPT, { timeoutMs: SHORT_MS });
  const m = parseMark(r.stdout);
  if (m.hostNowMs === null)
    throw new Error(`reading the host clock failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`);
  return { hostNowMs: m.hostNowMs, cursor: m.cursor };
}
async function unitState(host, service) {
  const r = await host.run(unitArgv(service), { timeoutMs: SHORT_MS });
  return parseUnitShow(r.stdout.split("\n"));
}
var isUp = (u) => u !== null && (u.activeState === "active" || u.activeState === "activating" || u.activeState === "reloading");
function restartCommands(service, daemonReload) {
  return [
    ...daemonReload ? [["systemctl", "daemon-reload"]] : [],
    ["systemctl", "reset-failed", "--", service],
    ["systemctl", "restart", "--", service]
  ];
}
var NRESTARTS = "@@dg-nrestarts=";
function restartScript(restart, service) {
  return `${shellJoin(restart)}; rc=$?; printf '%s' ${shellJoin([NRESTARTS])}; ${shellJoin(["systemctl", "show", "-p", "NRestarts", "--value", "--", service])}; exit $rc`;
}
function parseRestartCount(stdout) {
  const m = new RegExp(`${NRESTARTS}(\\d+)\\s*$`).exec(stdout);
  return m ? Number(m[1]) : null;
}
var RESTART_PROGRESS_MS = 1e4;
async function restartUnit(host, service, daemonReload, progress = () => {
}) {
  const evidence = [];
  const commands = [];
  const noteFailure = (argv, r) => {
    if (r.code !== 0)
      evidence.push(
        `${shellJoin(argv)}: exit ${r.code ?? r.signal}${r.timedOut ? " (timed out)" : ""} ${r.stderr.trim()}`.trim()
      );
  };
  const run = async (argv, timeoutMs) => {
    commands.push(shellJoin(argv));
    const r = await host.run(argv, { timeoutMs });
    noteFailure(argv, r);
    return r;
  };
  const stale = !daemonReload && (await host.run(["systemctl", "show", "-p", "NeedDaemonReload", "--value", "--", service], { timeoutMs: SHORT_MS })).stdout.trim() === "yes";
  if (stale) evidence.push(`systemd had not loaded the unit file on disk (NeedDaemonReload=yes): reloading`);
  const cmds = restartCommands(service, daemonReload || stale);
  const restart = cmds.pop();
  for (const c of cmds) await run(c, SHORT_MS);
  const mark = await hostMark(host);
  let stopHang = null;
  const stopMs = parseTimespan(
    (await host.run(["systemctl", "show", "-p", "TimeoutStopUSec", "--value", "--", service], { timeoutMs: SHORT_MS })).stdout
  );
  commands.push(shellJoin(restart));
  const restarting = host.runShell(restartScript(restart, service), { timeoutMs: RESTART_TIMEOUT_MS }).then((r) => {
    noteFailure(restart, r);
    return parseRestartCount(r.stdout);
  });
  const t0 = Date.now();
  const ticker = setInterval(
    () => progress(
      `systemctl restart ${service}: still waiting after ${Math.round((Date.now() - t0) / 1e3)}s (the old engine's stop, then ExecStartPre=)`
    ),
    RESTART_PROGRESS_MS
  );
  restarting.finally(() => clearInterval(ticker)).catch(() => void 0);
  if (stopMs !== null && stopMs + 5e3 < RESTART_TIMEOUT_MS) {
    let timer;
    const late = await Promise.race([
      restarting.then(() => false),
      new Promise((res) => {
        timer = setTimeout(() => res(true), stopMs + 5e3);
      })
    ]);
    clearTimeout(timer);
    if (late) {
      const now = await unitState(host, service).catch(() => null);
      if (now?.activeState === "activating" && /^start/.test(now.subState)) {
        evidence.push(
          `systemctl restart was still waiting after ${Math.round((stopMs + 5e3) / 1e3)} s on the start (${now.subState}), not on the stop: a slow ExecStartPre= holds it`
        );
      } else {
        const lines = await diagnoseStopHang(host, service, stopMs + 5e3);
        stopHang = lines[0];
        evidence.push(...lines);
      }
    }
  }
  let baselineRestarts = await restarting ?? 0;
  let unit = await unitState(host, service);
  if (!isUp(unit)) {
    baselineRestarts = 0;
    evidence.push(
      `after the restart the unit is ${unit?.activeState ?? "unknown"} (${unit?.subState ?? "?"}, Result=${unit?.result ?? "?"}): starting it`
    );
    await run(["systemctl", "reset-failed", "--", service], SHORT_MS);
    await run(["systemctl", "start", "--no-block", "--", service], SHORT_MS);
    unit = await unitState(host, service);
  }
  return { ok: isUp(unit), mark, unit, baselineRestarts, commands, evidence, stopHang };
}
async function diagnoseStopHang(host, service, waitedMs) {
  const r = await host.runShell(stopHangScript(service), { timeoutMs: SHORT_MS }).catch((e) => ({ stdout: "", stderr: e.message }));
  const hang = classifyStopHang(parsePs2(r.stdout), service, waitedMs);
  return [hang.summary, ...hang.evidence.map((l) => `  ${l}`)];
}
async function ensureUp(host, service) {
  const unit = await unitState(host, service).catch(() => null);
  if (isUp(unit)) return null;
  await host.run(["systemctl", "reset-failed", "--", service], { timeoutMs: SHORT_MS }).catch(() => void 0);
  const r = await host.run(["systemctl", "start", "--no-block", "--", service], { timeoutMs: SHORT_MS });
  return `the unit was ${unit?.activeState ?? "unknown"} (${unit?.result ?? "?"}); started it again (${r.code === 0 ? "ok" : `exit ${r.code}: ${r.stderr.trim()}`})`;
}

// src/stages/deploy/dry-run.ts
async function dryRun(ctx, service) {
  const files = await readInstallFiles(ctx);
  const { planned } = await readHostSide(ctx.host, ctx.name, files);
  const changed = planned.filter((f) => f.change !== "same");
  const diffs = [];
  for (const f of changed) diffs.push(await diffAgainstHost(ctx.host, f));
  const reload = changed.some((f) => isUnitFile(f.to));
  const commands = [
    ...changed.map((f) => `write ${f.to} (mode ${f.mode}, ${f.change}) atomically: temp file + rename`),
    `write ${statePath(ctx.name)} (state record: ${ctx.ref} ${ctx.sha.slice(0, 10)})`,
    ...restartCommands(service, reload).map((a) => shellJoin(a)),
    `poll every ${ctx.endpoint.boot.poll} ms for up to ${ctx.endpoint.boot.timeout} ms: unit, container, journal${ctx.endpoint.url ? `, ${ctx.endpoint.url}/v1/models` : ""}`
  ];
  return [
    pass(
      "deploy.install",
      `dry run: ${changed.length} of ${planned.length} file(s) would change${changed.length ? `: ${changed.map((f) => f.to).join(", ")}` : ""}`,
      {
        evidence: diffs,
        data: { dryRun: true, files: planned.map((f) => ({ from: f.from, to: f.to, mode: f.mode, change: f.change })) }
      }
    ),
    pass(
      "deploy.restart",
      `dry run: would run ${reload ? "daemon-reload and " : ""}a restart of ${service}; nothing was changed`,
      { evidence: commands, data: { dryRun: true, commands } }
    )
  ];
}
var missingConfig = (ctx, keys, composeGap) => fail("deploy.restart", `endpoint ${ctx.name} has no ${keys.join(", ")} in ${ctx.configFile}`, {
  fix: composeGap ? `The unit runs compose up, but the engine's container name cannot be told from it: ${composeGap}; or add \`container:\` (the container's name on the host) to endpoints.${ctx.name} in ${ctx.configFile}.` : `Add ${keys.map((k) => `\`${k}:\``).join(" and ")} to endpoints.${ctx.name} in ${ctx.configFile} (the systemd unit to restart and the podman container it runs; an engine the unit runs without a container needs no container:).`,
  file: ctx.configFile
});

// src/stages/deploy/lock.ts
import { randomBytes } from "node:crypto";

// src/stages/deploy/lock-record.ts
function parseLockRecord(text) {
  try {
    const v = JSON.parse(text);
    if (typeof v.owner !== "string" || typeof v.takenAt !== "number") return null;
    return {
      endpoint: v.endpoint ?? "?",
      owner: v.owner,
      ref: v.ref ?? "?",
      sha: v.sha ?? null,
      takenAt: v.takenAt,
      heartbeatAt: v.heartbeatAt ?? v.takenAt,
      pid: v.pid ?? 0,
      ...typeof v.message === "string" ? { message: v.message } : {}
    };
  } catch {
    return null;
  }
}
var HEARTBEAT_GRACE_S = 120;
function lockStaleness(rec, hostNow, staleAfterS) {
  const ageS = Math.max(0, hostNow - rec.takenAt);
  if (rec.message !== void 0) return { stale: false, reason: null, ageS };
  const quiet = hostNow - rec.heartbeatAt;
  if (quiet <= Math.min(HEARTBEAT_GRACE_S, staleAfterS)) return { stale: false, reason: null, ageS };
  if (ageS > staleAfterS)
    return {
      stale: true,
      reason: `taken ${ageS}s ago, older than lock.staleAfter (${staleAfterS}s), and its holder stopped refreshing it ${quiet}s ago`,
      ageS
    };
  return { stale: true, reason: `its holder stopped refreshing it ${quiet}s ago (holder gone)`, ageS };
}
function describeHolder(rec, hostNow) {
  if (rec.message !== void 0)
    return `${rec.owner} holds it by hand: ${JSON.stringify(rec.message)}, taken ${Math.max(0, hostNow - rec.takenAt)}s ago`;
  return `${rec.owner} deploying ${rec.ref}${rec.sha ? ` (${rec.sha.slice(0, 10)})` : ""}, taken ${Math.max(0, hostNow - rec.takenAt)}s ago`;
}

// src/lib/sleep.ts
var sleepUnlessAborted = (ms, signal) => new Promise((resolve) => {
  if (ms <= 0 || signal?.aborted) return resolve();
  const wake = () => {
    clearTimeout(t);
    signal?.removeEventListener("abort", wake);
    resolve();
  };
  const t = setTimeout(wake, ms);
  signal?.addEventListener("abort", wake, { once: true });
});

// src/stages/deploy/lock.ts
var CMD_TIMEOUT_MS2 = 2e4;
var HEARTBEAT_MS = 3e4;
var WAIT_POLL_MS = 2e3;
var lockDir = (endpoint) => `${HOST_STATE_DIR}/locks/${endpoint}.lock`;
var lockMutex = (endpoint) => `${HOST_STATE_DIR}/locks/.${endpoint}.mutex`;
function underLockMutex(endpoint, script) {
  const m = shellQuote(lockMutex(endpoint));
  return `mkdir -p ${shellQuote(`${HOST_STATE_DIR}/locks`)} && if command -v flock >/dev/null 2>&1; then exec flock -w 10 ${m} sh -c ${shellQuote(script)}; else exec sh -c ${shellQuote(script)}; fi`;
}
var held = /* @__PURE__ */ new Set();
var activeLocks = () => [...held];
async function releaseAllLocks() {
  await Promise.all([...held].map((l) => l.release().catch(() => void 0)));
}
var HeldLock = class {
  constructor(host, record) {
    this.host = host;
    this.record = record;
    held.add(this);
    this.timer = setInterval(() => void this.heartbeat().catch(() => void 0), HEARTBEAT_MS);
    this.timer.unref();
  }
  host;
  record;
  timer = null;
  released = false;
  lostCtl = new AbortController();
  /** why this run no longer holds the lock (cleared and taken by another); null while it does */
  lost = null;
  get dir() {
    return lockDir(this.record.endpoint);
  }
  /** Aborted when the lock is found to be someone else's: the deploy stops at its next wait. */
  get signal() {
    return this.lostCtl.signal;
  }
  /**
   * Refreshes heartbeatAt on the host clock, so a live holder never looks gone. The token check and the
   * write are one remote command: a lock cleared and taken by another runner is never taken back.
   */
  async heartbeat() {
    if (this.released || this.lost) return;
    const rec = `${this.dir}/record.json`;
    const tmp = `${rec}.hb-${this.record.token}`;
    const template = JSON.stringify({ ...this.record, heartbeatAt: 0 }).replace(
      '"heartbeatAt":0',
      '"heartbeatAt":@NOW@'
    );
    const script = `if grep -qF ${shellQuote(this.record.token)} ${shellQuote(rec)} 2>/dev/null; then now=$(date +%s); sed "s/@NOW@/$now/" > ${shellQuote(tmp)} && mv -f ${shellQuote(tmp)} ${shellQuote(rec)} && echo "OK $now"; else echo LOST; cat ${shellQuote(rec)} 2>/dev/null; fi`;
    const r = await this.host.runShell(underLockMutex(this.record.endpoint, script), {
      stdin: template,
      timeoutMs: CMD_TIMEOUT_MS2
    });
    const [first, ...rest] = r.stdout.split("\n");
    if (first === "LOST") {
      const other = parseLockRecord(rest.join("\n"));
      this.lost = other ? `the lock was cleared and is now held by ${other.owner} (${other.ref})` : "the lock was cleared by someone else";
      this.lostCtl.abort(new Error(this.lost));
      return;
    }
    const m = /^OK (\d+)$/.exec(first ?? "");
    if (r.code === 0 && m) this.record.heartbeatAt = Number(m[1]);
  }
  /** A hold by hand: the lock stays on the host after this process (no heartbeat, no release on exit). */
  keep() {
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    held.delete(this);
  }
  /** Removes the lock only while it is still ours (its token), so a cleared-and-retaken lock survives. */
  async release() {
    if (this.released) return;
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    held.delete(this);
    const rec = shellQuote(`${this.dir}/record.json`);
    await this.host.runShell(
      underLockMutex(
        this.record.endpoint,
        `if grep -qF ${shellQuote(this.record.token)} ${rec} 2>/dev/null; then rm -rf ${shellQuote(this.dir)}; fi`
      ),
      { timeoutMs: CMD_TIMEOUT_MS2 }
    );
  }
};
function clearCommand(endpoint, fleetHost) {
  return `deploy-gate lock release --endpoint ${endpoint}${fleetHost ? ` --hosts ${fleetHost}` : ""} --force`;
}
async function tryTake(host, req, token) {
  const dir = lockDir(req.endpoint);
  const script = `mkdir -p ${shellQuote(`${HOST_STATE_DIR}/locks`)} && if mkdir ${shellQuote(dir)} 2>/dev/null; then echo TAKEN; date +%s; else echo HELD; date +%s; cat ${shellQuote(`${dir}/record.json`)} 2>/dev/null || true; fi`;
  const r = await host.runShell(script, { timeoutMs: CMD_TIMEOUT_MS2 });
  const [state, nowText, ...rest] = r.stdout.split("\n");
  const hostNowS = Number(nowText);
  if (r.code !== 0 || !Number.isFinite(hostNowS) || state !== "TAKEN" && state !== "HELD") {
    if (state === "TAKEN")
      await host.runShell(`rm -rf ${shellQuote(dir)}`, { timeoutMs: CMD_TIMEOUT_MS2 }).catch(() => void 0);
    throw new Error(
      `taking the lock ${dir} on ${host.name} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}; check that the home directory is writable`
    );
  }
  if (state === "HELD") return { holder: parseLockRecord(rest.join("\n")), hostNowS };
  const rec = {
    endpoint: req.endpoint,
    owner: req.owner,
    ref: req.ref,
    sha: req.sha,
    takenAt: hostNowS,
    heartbeatAt: hostNowS,
    pid: process.pid,
    token,
    ...req.message !== void 0 ? { message: req.message } : {}
  };
  try {
    await host.writeFile(`${dir}/record.json`, JSON.stringify(rec), 420, { timeoutMs: CMD_TIMEOUT_MS2 });
  } catch (e) {
    await host.runShell(`rm -rf ${shellQuote(dir)}`, { timeoutMs: CMD_TIMEOUT_MS2 }).catch(() => void 0);
    throw e;
  }
  return { taken: rec };
}
var sleep = sleepUnlessAborted;
async function takeLock(host, req, now = Date.now) {
  const token = randomBytes(12).toString("hex");
  const start = now();
  let said = -1;
  for (; ; ) {
    const r = await tryTake(host, req, token);
    if ("taken" in r) return { ok: true, lock: new HeldLock(host, r.taken), waitedMs: now() - start };
    const clear = clearCommand(req.endpoint, req.fleetHost);
    const st = r.holder ? lockStaleness(r.holder, r.hostNowS, Math.round(req.staleAfterMs / 1e3)) : null;
    if (st?.stale)
      return {
        ok: false,
        held: r.holder,
        stale: st.reason,
        clearCommand: clear,
        detail: describeHolder(r.holder, r.hostNowS)
      };
    const waited = now() - start;
    if (waited >= req.waitMs || req.signal?.aborted) {
      const who = r.holder ? describeHolder(r.holder, r.hostNowS) : "a holder whose record is not written yet";
      return {
        ok: false,
        held: r.holder,
        stale: null,
        clearCommand: clear,
        detail: req.waitMs > 0 ? `${who} (waited ${Math.round(waited / 1e3)} s)` : who
      };
    }
    if (Math.floor(waited / 1e4) !== said) {
      said = Math.floor(waited / 1e4);
      req.progress?.(
        `waiting for the deploy lock (${Math.round(waited / 1e3)} s of ${Math.round(req.waitMs / 1e3)} s): held by ${r.holder ? describeHolder(r.holder, r.hostNowS) : "a holder whose record is not written yet"}`
      );
    }
    await sleep(Math.min(WAIT_POLL_MS, req.waitMs - waited), req.signal);
  }
}

// src/lib/elapsed.ts
function formatElapsed(ms) {
  const s = Math.max(0, Math.floor(ms / 1e3));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

// src/stages/deploy/readiness.ts
function initialState(startedAtHostMs, timeoutMs, baselineRestarts = 0) {
  return {
    startedAtHostMs,
    timeoutMs,
    baselineRestarts,
    fresh: null,
    marker: false,
    markerLine: null,
    markerAtMs: null,
    unanswered: 0,
    otherContainers: [],
    phase: null,
    lastLine: null
  };
}
var LIVE_CONTAINER = /* @__PURE__ */ new Set(["created", "configured", "initialized", "running"]);
function isFresh(c, startedAtHostMs) {
  return c.createdAtMs >= startedAtHostMs;
}
var AFTER_MARKER_POLLS = 3;
var AFTER_MARKER_MS = 15e3;
function decide(prev, obs, configContainer) {
  const state = { ...prev };
  for (const name of obs.containerNames ?? []) {
    if (name !== configContainer && !state.otherContainers.includes(name))
      state.otherContainers = [...state.otherContainers, name];
  }
  for (const line of obs.messages) {
    if (isReadyMarker(line)) {
      state.marker = true;
      state.markerLine ??= line.trim();
      state.markerAtMs ??= obs.hostNowMs;
    }
    const p = bootPhase(line);
    if (p) state.phase = p;
    if (line.trim()) state.lastLine = line;
  }
  const c = obs.container && isFresh(obs.container, state.startedAtHostMs) ? obs.container : null;
  const fail2 = (failure, reason) => ({ kind: "fail", state, failure, reason });
  const u = obs.unit;
  if (u) {
    if (u.activeState === "failed")
      return fail2(
        "unit-failed",
        `the unit failed (Result=${u.result || "?"}, ExecMainStatus=${u.execMainStatus ?? "?"})`
      );
    if (u.subState === "auto-restart")
      return fail2(
        "restarting",
        `the unit is restarting after its main process exited (ExecMainStatus=${u.execMainStatus ?? "?"})`
      );
    if (u.nRestarts !== null && u.nRestarts > state.baselineRestarts)
      return fail2(
        "restarting",
        `NRestarts rose from ${state.baselineRestarts} to ${u.nRestarts}: the engine exited and systemd restarted it`
      );
    if (u.activeState === "inactive")
      return fail2("unit-stopped", `the unit is inactive (${u.subState}): nothing will start the engine again`);
    if (u.activeState === "deactivating")
      return fail2("unit-stopped", `the unit is deactivating (${u.subState}): its engine is going down`);
  }
  if (state.fresh) {
    if (!obs.container)
      return fail2("container-gone", `container ${short(state.fresh.id)} is gone (removed, or exited under --rm)`);
    if (obs.container.id !== state.fresh.id) {
      return isFresh(obs.container, state.startedAtHostMs) ? fail2(
        "restarting",
        `container ${short(state.fresh.id)} was replaced by ${short(obs.container.id)}: the engine was restarted`
      ) : fail2("container-gone", `container ${short(state.fresh.id)} is gone`);
    }
  }
  if (c) {
    if (!LIVE_CONTAINER.has(c.state))
      return fail2("container-exited", `container ${short(c.id)} is ${c.state} (exit code ${c.exitCode ?? "?"})`);
    state.fresh = c;
  }
  const st = obs.models?.status;
  if (state.fresh && (st === 401 || st === 403))
    return fail2(
      "auth-mismatch",
      `/v1/models answered ${st}: the server requires an API key the gate ${obs.models?.sentKey ? "sent but it was refused" : "did not send (DEPLOY_GATE_API_KEY is unset)"}`
    );
  if (state.fresh && state.marker && (obs.models === null || obs.models.status === 200 && obs.models.listsModel))
    return { kind: "ready", state };
  if (state.marker && obs.models) state.unanswered = obs.models.status === null ? state.unanswered + 1 : 0;
  const settled = state.markerAtMs !== null && obs.hostNowMs - state.markerAtMs >= AFTER_MARKER_MS;
  if (settled && !state.fresh && state.otherContainers.length > 0) {
    return fail2(
      "container-mismatch",
      `the engine reached readiness in container ${state.otherContainers.join(", ")}, but container: says ${configContainer ?? "another name"}, and no container of that name was created`
    );
  }
  const old = obs.container && !isFresh(obs.container, state.startedAtHostMs) ? obs.container : null;
  if (settled && !state.fresh && old && LIVE_CONTAINER.has(old.state)) {
    return fail2(
      "container-reused",
      `the engine reached readiness in container ${short(old.id)}, created ${formatElapsed(state.startedAtHostMs - old.createdAtMs)} before this deploy began: the restart started the old container again instead of a new one`
    );
  }
  if (settled && state.fresh && state.unanswered >= AFTER_MARKER_POLLS) {
    return fail2(
      "url-unreachable",
      `the engine logged its startup complete ${formatElapsed(obs.hostNowMs - state.markerAtMs)} ago, but /v1/models has not answered since (${obs.models?.error ?? "no answer"})`
    );
  }
  if (obs.hostNowMs - state.startedAtHostMs > state.timeoutMs) {
    return fail2(
      "timeout",
      `not ready within boot.timeout (${formatElapsed(state.timeoutMs)})${state.phase ? `; last phase: ${phaseLabel(state.phase)}` : ""}`
    );
  }
  return { kind: "wait", state };
}
var short = (id) => id.slice(0, 12);
var LABELS = {
  "loading-weights": "loading weights",
  "profiling-kv": "profiling memory / KV cache",
  compiling: "compiling (torch.compile)",
  "capturing-graphs": "capturing CUDA graphs",
  "starting-api": "starting the API server",
  ready: "API up (waiting for /v1/models)"
};
var phaseLabel = (p) => LABELS[p];
function progressLine(name, s, obs) {
  const elapsed = formatElapsed(obs.hostNowMs - s.startedAtHostMs).padStart(6, " ");
  const phase = s.phase ? phaseLabel(s.phase) : "waiting for the engine's first boot line";
  let box;
  const seen = s.fresh ?? (obs.container && isFresh(obs.container, s.startedAtHostMs) ? obs.container : null);
  const ended = seen && !s.fresh ? ` (${seen.state})` : "";
  if (seen)
    box = (seen.process ? `unit run ${seen.id.slice(0, 6)} started ${formatElapsed(obs.hostNowMs - seen.createdAtMs)} ago` : `container ${seen.id.slice(0, 6)} created ${formatElapsed(obs.hostNowMs - seen.createdAtMs)} ago`) + ended;
  else if (obs.container)
    box = obs.container.process ? `the unit's run ${obs.container.id.slice(0, 6)} from before this deploy` : `old container ${obs.container.id.slice(0, 6)} still present (created before this deploy)`;
  else box = "no new container yet";
  const http = obs.models && s.marker && obs.models.status !== 200 ? ` \xB7 /v1/models: ${obs.models.status ?? obs.models.error}` : "";
  return `[${elapsed}] ${name}: ${phase} \xB7 ${box}${http}`;
}

// src/ports/http/client.ts
var DEFAULT_TIMEOUT_MS = 1e4;
var DEFAULT_MAX_BODY = 4 << 20;
var BAD_HEADER = "a request header could not be sent: DEPLOY_GATE_API_KEY holds a character no HTTP header can carry (a newline or another control character): store the key alone, on one line";
var isHeaderError = (e) => e instanceof TypeError && /^Headers\./.test(e.message);
function describe(e, timedOut, timeoutMs) {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  if (isHeaderError(e)) return BAD_HEADER;
  const cause = e.cause;
  switch (cause?.code) {
    case "ECONNREFUSED":
      return "connection refused (nothing listens on that port yet)";
    case "ECONNRESET":
      return "connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name does not resolve";
    default:
      return e.message ?? String(e);
  }
}
function redirectError(res, url) {
  if (res.status < 300 || res.status > 399 || !res.headers.has("location")) return null;
  const to = new URL(res.headers.get("location"), url).href;
  return `redirected (HTTP ${res.status}) to ${to}: the gate does not follow redirects; set the endpoint's url: (or --url) to where the engine itself answers`;
}
async function request(method, url, body, opts = {}) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, timeoutMs);
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method,
      signal: ctl.signal,
      headers: { ...body === void 0 ? {} : { "content-type": "application/json" }, ...opts.headers },
      body: body === void 0 ? void 0 : JSON.stringify(body),
      redirect: "manual"
    });
    const moved = redirectError(res, url);
    if (moved) {
      await res.body?.cancel();
      return { status: null, body: "", error: moved, durationMs: performance.now() - t0 };
    }
    const cap = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const chunks = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > cap) {
        ctl.abort();
        break;
      }
      chunks.push(chunk);
    }
    return {
      status: res.status,
      body: Buffer.concat(chunks).toString("utf8"),
      error: size > cap ? `body larger than ${cap} bytes, cut` : null,
      durationMs: performance.now() - t0
    };
  } catch (e) {
    return { status: null, body: "", error: describe(e, timedOut, timeoutMs), durationMs: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}
var httpGet = (url, opts) => request("GET", url, void 0, opts);

// src/stages/deploy/wait.ts
function modelsListed(body, model) {
  try {
    const v = JSON.parse(body);
    return Array.isArray(v.data) && (model === void 0 ? v.data.length > 0 : v.data.some((m) => m.id === model));
  } catch {
    return false;
  }
}
async function probeModels(url, model, apiKey) {
  const headers = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const r = await httpGet(`${url.replace(/\/+$/, "")}/v1/models`, {
    timeoutMs: 1e4,
    maxBodyBytes: 1 << 20,
    headers
  });
  return {
    status: r.status,
    listsModel: r.status === 200 && modelsListed(r.body, model),
    error: r.error,
    sentKey: Boolean(apiKey)
  };
}
var sleep2 = sleepUnlessAborted;
var stopReason = (signal) => signal.reason instanceof Error && signal.reason.name !== "AbortError" ? `stopped waiting: ${signal.reason.message}` : "interrupted (SIGINT/SIGTERM) while waiting";
async function waitReady(ctx, input) {
  const pollMs = ctx.endpoint.boot.poll;
  const timeoutMs = ctx.endpoint.boot.timeout;
  let state = initialState(input.startedAtHostMs, timeoutMs, input.baselineRestarts);
  let cursor = input.cursor;
  const runnerStart = ctx.now();
  let last = null;
  let polls = 0;
  let noReading = 0;
  for (; ; ) {
    const t0 = ctx.now();
    if (ctx.signal?.aborted)
      return { decision: { kind: "fail", state, failure: "timeout", reason: stopReason(ctx.signal) }, last, polls };
    const r = await ctx.host.runShell(
      pollScript({
        service: input.service,
        container: input.container,
        cursor,
        sinceHostS: Math.floor(input.startedAtHostMs / 1e3),
        cli: input.cli
      }),
      { timeoutMs: Math.max(15e3, 3 * pollMs), maxOutputBytes: 32 << 20 }
    ).catch((e) => ({ code: null, stdout: "", stderr: e.message, timedOut: false, truncated: false }));
    polls++;
    const out = parsePoll(r.stdout, r);
    const why = out.incomplete ?? (out.unit === null ? out.errors.join("; ") || "no unit state" : null);
    if (why !== null || out.hostNowMs === null) {
      noReading++;
      const detail = [why ?? "no host clock", r.stderr.trim().split("\n").pop()].filter(Boolean).join(": ");
      if (ctx.now() - runnerStart > timeoutMs) {
        return {
          decision: {
            kind: "fail",
            state,
            failure: "timeout",
            reason: `not ready within boot.timeout (${formatElapsed(timeoutMs)}): the last ${noReading} poll(s) got no complete answer from ${ctx.host.name} (${detail})`
          },
          last,
          polls
        };
      }
      ctx.progress(
        `[poll] ${ctx.name}: no reading from this poll (${detail}); reconnecting and polling again (${noReading} in a row)`
      );
      await sleep2(pollMs - (ctx.now() - t0), ctx.signal);
      continue;
    }
    noReading = 0;
    cursor = out.journal.cursor ?? cursor;
    const markerNow = state.marker || out.journal.messages.some(isReadyMarker);
    const url = ctx.endpoint.url;
    const models = url && markerNow ? await probeModels(url, ctx.endpoint.model, input.apiKey) : null;
    last = {
      hostNowMs: out.hostNowMs,
      unit: out.unit,
      container: out.container,
      messages: out.journal.messages,
      containerNames: out.journal.containers,
      models
    };
    const d = decide(state, last, input.container ?? void 0);
    state = d.state;
    ctx.progress(progressLine(ctx.name, state, last));
    if (d.kind !== "wait") return { decision: d, last, polls };
    await sleep2(pollMs - (ctx.now() - t0), ctx.signal);
  }
}

// src/domain/engine/help-flags.ts
function flagsInHelp(help) {
  const out = /* @__PURE__ */ new Set();
  for (const line of help.split("\n")) {
    const t = line.trim();
    if (!/^-{1,2}[A-Za-z0-9]/.test(t)) continue;
    for (const raw of t.split(/\s+/)) {
      const w = raw.replace(/,$/, "");
      if (w === "") continue;
      const flag = /^(-{1,2}[A-Za-z0-9][\w.-]*)(?:[=[].*)?$/.exec(w);
      if (flag) {
        out.add(flag[1]);
        continue;
      }
      if (/^([A-Z0-9_]+|\{[^}]*\}?|<[^>]*>|\[[^\]]*\]?|N)$/.test(w)) continue;
      break;
    }
  }
  return out;
}
var GONE = {
  vllm: {
    "--enable-reasoning": "deprecated in vLLM 0.9.0 (PR #17452) and refused as an unrecognized argument by 0.10.0: --reasoning-parser alone enables reasoning",
    "--guided-decoding-backend": `vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2): --structured-outputs-config '{"backend": "xgrammar"}'`,
    "--guided-decoding-disable-fallback": "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--guided-decoding-disable-any-whitespace": "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--guided-decoding-disable-additional-properties": "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--task": "vLLM deprecated --task for --runner (generate, pooling) and --convert (embed, classify...) in PR #21470: use those"
  }
};
var norm = (kind, f) => kind === "vllm" ? f.replace(/_/g, "-") : f;
function judgeFlags(kind, flags, help) {
  const known = new Set([...help].map((f) => norm(kind, f)));
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  for (const f of flags) {
    const name = norm(kind, kind === "vllm" ? f.replace(/^(--[\w-]+)\..*$/, "$1") : f);
    if (known.has(name) || seen.has(name)) continue;
    seen.add(name);
    out.push({ flag: f, known: GONE[kind]?.[name] ?? null });
  }
  return out;
}

// src/stages/deploy/image-flags.ts
var CHECK = "verify.image-flags";
var MARK2 = "@@dg-help";
var HELP_ARGS = {
  vllm: ["--help=all"],
  sglang: ["--help"],
  "llama.cpp": ["--help"]
};
function helpRun(script) {
  const e = script?.engine;
  if (!e) return { skip: "no engine command in the launch file" };
  const run = e.podmanRun;
  if (!run) return { skip: "the engine runs without a container: there is no image to ask" };
  const image = run.image?.resolved ?? run.image?.text;
  if (!image || run.image?.dynamic) return { skip: "the image is not a literal in the launch file" };
  const cli = run.runtime === "docker" ? "docker" : "podman";
  const entry = run.options.filter((o) => o.name === "--entrypoint" && o.value).at(-1);
  const program = run.engineArgs.slice(0, run.engineArgs.length - e.args.length).map((w) => w.resolved ?? w.text);
  const argv = [
    cli,
    "run",
    "--rm",
    "--pull=never",
    "--network=none",
    ...entry ? [`--entrypoint=${entry.resolvedValue ?? entry.value}`] : [],
    image,
    ...program,
    ...HELP_ARGS[e.kind]
  ];
  return { kind: e.kind, cli, image, argv, flags: e.flags.map((f) => f.name) };
}
function helpScript(h) {
  const dir = `"$HOME"/${shellQuote(`${HOST_STATE_DIR}/help`)}`;
  const kind = h.kind.replace(/\W/g, "");
  return [
    `d=$(${h.cli} image inspect --format '{{.Id}}' ${shellQuote(h.image)} 2>/dev/null | head -n1)`,
    `[ -n "$d" ] || { echo "${MARK2} none"; exit 0; }`,
    `f=${dir}/"\${d#sha256:}-${kind}.txt"`,
    `if [ -s "$f" ]; then echo "${MARK2} cached $d"; cat "$f"; exit 0; fi`,
    `mkdir -p ${dir} && t="$f.$$"`,
    `timeout 300 ${shellJoin(h.argv)} >"$t" 2>&1; rc=$?`,
    `if [ "$rc" = 0 ] && [ -s "$t" ]; then mv -f "$t" "$f"; echo "${MARK2} fresh $d"; cat "$f"; else echo "${MARK2} failed $rc $d"; head -c 4000 "$t"; rm -f "$t"; fi`
  ].join("\n");
}
function parseHelpAnswer(stdout) {
  const at2 = stdout.indexOf(`${MARK2} `);
  if (at2 < 0) return null;
  const nl = stdout.indexOf("\n", at2);
  const head = stdout.slice(at2 + MARK2.length + 1, nl < 0 ? void 0 : nl).split(" ");
  const text = nl < 0 ? "" : stdout.slice(nl + 1);
  const state = head[0];
  if (state === "failed") return { state, exitCode: Number(head[1]), imageId: head[2] ?? null, text };
  return { state, exitCode: null, imageId: head[1] ?? null, text };
}
function judgeHelp(h, a, error) {
  if (!a)
    return warn(CHECK, `could not ask ${h.image} for its flags: ${error ?? "no answer"}`, {
      fix: "the flags were not checked before the boot; the engine checks them itself: read deploy.diagnosis if it refuses"
    });
  if (a.state === "none")
    return skip(
      CHECK,
      `${h.image} is not on the host yet (the restart pulls it): its flags are checked from the next deploy on`
    );
  const id = (a.imageId ?? "").replace(/^sha256:/, "").slice(0, 12);
  const cmd = h.argv.slice(4).join(" ");
  if (a.state === "failed")
    return warn(CHECK, `${h.image}'s help exited ${a.exitCode}: its flags were not checked`, {
      evidence: [`${h.cli} run \u2026 ${cmd}`, ...a.text.split("\n").slice(0, 8)],
      fix: "the help command failed on the host (see the evidence); the engine checks its flags itself at boot"
    });
  const known = flagsInHelp(a.text);
  if (known.size < 5)
    return warn(CHECK, `${h.image}'s help lists ${known.size} flags: not read as ${h.kind}'s help`, {
      evidence: a.text.split("\n").slice(0, 8),
      fix: "check the launch file starts the engine the gate thinks it does; its flags were not checked"
    });
  const unknown = judgeFlags(h.kind, h.flags, known);
  const evidence = [
    `${cmd} (image ${id}, ${a.state === "cached" ? "help cached on the host" : "help read now"}): ${known.size} flags`
  ];
  const data = { image: h.image, imageId: a.imageId, cached: a.state === "cached", checked: h.flags.length, unknown };
  if (!unknown.length)
    return pass(CHECK, `every engine flag of the launch file (${h.flags.length}) is in ${h.image}'s own help`, {
      evidence,
      data
    });
  return fail(
    CHECK,
    `${h.image} does not know ${unknown.map((u) => u.flag).join(", ")}: the engine would refuse to boot`,
    {
      evidence: [...evidence, ...unknown.map((u) => `${u.flag}: ${u.known ?? "not in this image's help"}`)],
      data,
      fix: `nothing was changed on the host: ${unknown.map((u) => u.known ? `${u.flag}: ${u.known}` : `${u.flag}: check its spelling, or the image version that has it`).join("; ")}; fix the launch file and deploy again`
    }
  );
}
async function checkImageFlags(host, script, progress) {
  const h = helpRun(script);
  if ("skip" in h) return skip(CHECK, h.skip);
  progress(`reading ${h.image}'s own flags on the host`);
  try {
    const r = await host.runShell(helpScript(h), { timeoutMs: 33e4 });
    return judgeHelp(
      h,
      parseHelpAnswer(r.stdout),
      r.timedOut ? "the host did not answer within 330 s" : r.stderr.trim() || null
    );
  } catch (e) {
    return judgeHelp(h, null, e.message);
  }
}

// src/domain/config/launch-file.ts
function launchFile(ep) {
  if (ep.script) return { path: ep.script, kind: "script" };
  if (ep.quadlet) return { path: ep.quadlet, kind: "quadlet" };
  const unit = ep.unit;
  return { path: unit, kind: unit.endsWith(".container") ? "quadlet" : "unit" };
}

// src/stages/compose-inputs.ts
import { posix as posix6 } from "node:path";

// src/domain/launch/flags.ts
var SWITCH = /^--(no-|enable-|disable-)|^--(trust-remote-code|enforce-eager|async-scheduling|expert-precise-memory|skip-tokenizer-init|headless|disable-log-requests|disable-log-stats)$/;
var BOOL_WORD = /^(true|false|True|False|1|0)$/;
function isFlagWord(text) {
  return /^--?[A-Za-z]/.test(text);
}
function flagByDefault(w) {
  const byDefault = /^"?\$\{[A-Za-z_][A-Za-z0-9_]*:?-[^}]*\}"?$/.test(w.text);
  return byDefault && w.resolved !== void 0 && isFlagWord(w.resolved) ? { ...w, text: w.resolved } : w;
}
function readFlags(words) {
  const flags = [];
  const positional = [];
  for (let i = 0; i < words.length; i++) {
    const w = flagByDefault(words[i]);
    if (!isFlagWord(w.text)) {
      positional.push(w);
      continue;
    }
    const space = /^(--?[A-Za-z][\w.-]*)\s+(\S.*)$/s.exec(w.text);
    if (space && !w.text.includes("=")) {
      flags.push({
        name: space[1],
        value: space[2],
        line: w.line,
        optional: w.optional,
        resolvedValue: space[2],
        ...off(w)
      });
      continue;
    }
    const eq = w.text.indexOf("=");
    if (eq > 0) {
      const flag2 = {
        name: w.text.slice(0, eq),
        value: w.text.slice(eq + 1),
        line: w.line,
        optional: w.optional,
        ...off(w)
      };
      if (w.resolved !== void 0) flag2.resolvedValue = w.resolved.slice(w.resolved.indexOf("=") + 1);
      else if (!w.dynamic) flag2.resolvedValue = flag2.value;
      flags.push(flag2);
      continue;
    }
    const next = words[i + 1];
    const takesNext = next !== void 0 && !isFlagWord(next.text) && (!SWITCH.test(w.text) || BOOL_WORD.test(next.text)) && // a word from ${X:+...} belongs to its own optional group, not to a plain flag before it
    next.optional === w.optional;
    const flag = {
      name: w.text,
      value: takesNext ? next.text : null,
      line: w.line,
      optional: w.optional,
      ...off(w)
    };
    if (takesNext) {
      i++;
      if (next.resolved !== void 0) flag.resolvedValue = next.resolved;
      else if (!next.dynamic) flag.resolvedValue = next.text;
    }
    flags.push(flag);
  }
  return { flags, positional };
}
var off = (w) => ({ ...w.offDefault ? { offDefault: true } : {}, ...w.file ? { file: w.file } : {} });

// src/domain/launch/podman.ts
var VALUE_OPTIONS = new Set(
  `add-host annotation arch attach authfile blkio-weight blkio-weight-device cap-add cap-drop
cgroup-conf cgroup-parent cgroupns cgroups chrootdirs cidfile conmon-pidfile cpu-period cpu-quota cpu-rt-period
cpu-rt-runtime cpu-shares cpus cpuset-cpus cpuset-mems decryption-key detach-keys device device-cgroup-rule
device-read-bps device-read-iops device-write-bps device-write-iops dns dns-option dns-search entrypoint env env-file
env-merge expose gidmap gpus group-add group-entry health-cmd health-interval health-log-destination health-max-log-count
health-max-log-size health-on-failure health-retries health-start-period health-startup-cmd health-startup-interval
health-startup-retries health-startup-success health-startup-timeout health-timeout hostname hosts-file hostuser
image-volume init-path ip ip6 ipc label label-file log-driver log-opt mac-address memory memory-reservation memory-swap
memory-swappiness mount name network net network-alias oom-score-adj os passwd-entry personality pid pidfile pids-limit
platform pod pod-id-file preserve-fd preserve-fds publish pull requires restart retry retry-delay sdnotify seccomp-policy
secret security-opt shm-size shm-size-systemd stop-signal stop-timeout subgidname subuidname sysctl systemd timeout tmpfs
tz uidmap ulimit umask unsetenv user userns uts variant volume volumes-from workdir
runtime storage-opt isolation cpu-count cpu-percent kernel-memory link link-local-ip volume-driver domainname`.split(
    /\s+/
  )
);
var SHORT_VALUE = {
  e: "env",
  v: "volume",
  p: "publish",
  a: "attach",
  c: "cpu-shares",
  h: "hostname",
  l: "label",
  m: "memory",
  u: "user",
  w: "workdir"
};
var SHORT_SWITCH = { d: "detach", i: "interactive", t: "tty", q: "quiet", P: "publish-all" };
var LONG_SWITCHES = new Set(
  "rm detach interactive tty privileged init read-only replace quiet publish-all sig-proxy no-healthcheck".split(" ")
);
function runOption(text) {
  const long = /^--([\w-]+)/.exec(text)?.[1];
  if (long) return VALUE_OPTIONS.has(long) || LONG_SWITCHES.has(long);
  const letter = /^-(\w)/.exec(text)?.[1];
  return letter !== void 0 && (letter in SHORT_VALUE || letter in SHORT_SWITCH);
}
function splitColons(text) {
  const out = [];
  let depth = 0;
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "$" && text[i + 1] === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    if (c === ":" && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}
function readOptions(args) {
  const options = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i];
    const t = w.text;
    if (t === "--") {
      i++;
      break;
    }
    const held2 = w.dynamic && w.resolved === void 0 && /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(t);
    if (held2 && args[i + 1]?.text.startsWith("-") && runOption(args[i + 1].text)) continue;
    if (!t.startsWith("-") || t === "-") break;
    const flag = (name, value, from = w, skip2 = (r) => r) => {
      const f = { name, value, line: w.line, optional: w.optional };
      const resolved = from.resolved ?? (from.dynamic ? void 0 : from.text);
      if (value !== null && resolved !== void 0) f.resolvedValue = skip2(resolved);
      return f;
    };
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq > 0 ? t.slice(2, eq) : t.slice(2);
      if (eq > 0) options.push(flag(`--${name}`, t.slice(eq + 1), w, (r) => r.slice(r.indexOf("=") + 1)));
      else if (VALUE_OPTIONS.has(name)) {
        const v = args[++i];
        options.push(v ? flag(`--${name}`, v.text, v) : flag(`--${name}`, null));
      } else options.push(flag(`--${name}`, null));
      continue;
    }
    const letters = t.slice(1);
    if ([...letters].every((ch) => ch in SHORT_SWITCH)) {
      for (const ch of letters) options.push(flag(`--${SHORT_SWITCH[ch]}`, null));
      continue;
    }
    const long = SHORT_VALUE[letters[0]];
    if (long) {
      const attached = letters.slice(1).replace(/^=/, "");
      if (attached) options.push(flag(`--${long}`, attached, w, (r) => r.slice(2).replace(/^=/, "")));
      else {
        const v = args[++i];
        options.push(v ? flag(`--${long}`, v.text, v) : flag(`--${long}`, null));
      }
      continue;
    }
    options.push(flag(t, null));
  }
  return { options, imageAt: i };
}
function readPodmanRun(command, args, runtime = "podman", create = false) {
  const { options, imageAt } = readOptions(args);
  const valuesOf = (name) => options.filter((o) => o.name === name && o.value !== null);
  const last = (name) => valuesOf(name).at(-1)?.value ?? null;
  const env = valuesOf("--env").map((o) => {
    const eq = o.value.indexOf("=");
    return {
      name: eq > 0 ? o.value.slice(0, eq) : o.value,
      value: eq > 0 ? o.value.slice(eq + 1) : null,
      line: o.line
    };
  });
  const volumes = valuesOf("--volume").map((o) => {
    const [source = "", target = "", ...rest] = splitColons(o.value);
    const volume = {
      source,
      target,
      options: rest.length ? rest.join(":") : null,
      line: o.line
    };
    if (o.resolvedValue !== void 0) volume.resolvedSource = o.resolvedValue.split(":")[0];
    return volume;
  });
  for (const o of valuesOf("--mount")) {
    const kv = Object.fromEntries(
      o.value.split(",").map((p) => {
        const eq = p.indexOf("=");
        return eq > 0 ? [p.slice(0, eq), p.slice(eq + 1)] : [p, ""];
      })
    );
    const source = kv.source ?? kv.src ?? "";
    const target = kv.target ?? kv.destination ?? kv.dst ?? "";
    if (source || target)
      volumes.push({
        source,
        target,
        options: kv.ro !== void 0 || kv.readonly === "true" ? "ro" : null,
        line: o.line
      });
  }
  const image = args[imageAt] ?? null;
  const engineArgs = args.slice(imageAt + 1);
  const { flags, positional } = readFlags(engineArgs);
  return {
    command,
    runtime,
    create,
    rm: options.some((o) => o.name === "--rm"),
    replace: options.some((o) => o.name === "--replace" && o.value !== "false"),
    options,
    env,
    volumes,
    devices: valuesOf("--device").map((o) => ({ path: splitColons(o.value)[0], line: o.line })),
    ulimits: valuesOf("--ulimit").map((o) => ({ value: o.value, line: o.line })),
    ipc: last("--ipc"),
    shmSize: last("--shm-size"),
    name: last("--name"),
    publish: valuesOf("--publish").map((o) => o.value),
    image,
    engineArgs,
    engineFlags: flags,
    positional
  };
}

// src/domain/launch/compose-build.ts
import { posix as posix2 } from "node:path";

// src/domain/launch/dockerfile.ts
import { posix } from "node:path";

// src/domain/launch/lexer.ts
var META = /* @__PURE__ */ new Set([" ", "	", "\n", ";", "&", "|", "(", ")", "<", ">"]);
var OPS = [";;&", ";;", ";&", "&&", "||", "|&", "|", ";", "&", "(", ")"];
var REDIRECTS = ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"];
var ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;
var MAX_NESTING = 256;
var NestingTooDeep = class extends Error {
  constructor(line) {
    super(`quotes and substitutions nested more than ${MAX_NESTING} deep (from line ${line}): not read`);
    this.line = line;
  }
  line;
};
function lex(text, firstLine = 1) {
  return new Lexer(text, firstLine).run();
}
function lexWords(text, firstLine) {
  return lex(text, firstLine).flatMap((t) => t.kind === "word" ? [t.word] : t.kind === "array" ? t.words : []);
}
var Lexer = class {
  constructor(src, firstLine) {
    this.src = src;
    this.line = firstLine;
  }
  src;
  pos = 0;
  line;
  tokens = [];
  heredocs = [];
  run() {
    while (this.pos < this.src.length) this.step();
    return this.tokens;
  }
  peek(offset = 0) {
    return this.src[this.pos + offset] ?? "";
  }
  step() {
    const c = this.peek();
    if (c === " " || c === "	" || c === "\r") {
      this.pos++;
      return;
    }
    if (c === "\\" && this.peek(1) === "\n") {
      this.pos += 2;
      this.line++;
      return;
    }
    if (c === "#") {
      this.skipComment();
      return;
    }
    if (c === "\n") {
      this.tokens.push({ kind: "op", op: "\n", line: this.line });
      this.pos++;
      this.line++;
      this.skipHeredocBodies();
      return;
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 12));
      if (m) {
        this.pos += m[0].length;
        this.redirect(m[0]);
        return;
      }
    }
    if (c === "<" || c === ">" || c === "&" && this.peek(1) === ">") {
      this.redirect("");
      return;
    }
    if (c === "(" && this.peek(1) === "(") {
      this.arithmeticCommand();
      return;
    }
    for (const op of OPS) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        this.tokens.push({ kind: "op", op, line: this.line });
        return;
      }
    }
    const word2 = this.word(false);
    if (word2) this.emitWord(word2);
  }
  emitWord(word2) {
    const only = word2.parts.length === 1 ? word2.parts[0] : null;
    if (only?.kind === "sub" && word2.text === only.raw && /^\s*(#[^\n]*)?$/.test(only.body)) return;
    const a = word2.assignment;
    if (a && a.value === "" && this.peek() === "(" && word2.parts.length === 1) {
      const line = word2.line;
      this.pos++;
      this.tokens.push({ kind: "array", name: a.name, append: a.append, words: this.arrayWords(), line });
      return;
    }
    for (const w of splitOptional(word2)) this.tokens.push({ kind: "word", word: w });
  }
  arrayWords() {
    const words = [];
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === ")") {
        this.pos++;
        break;
      }
      if (c === "\n") {
        this.pos++;
        this.line++;
        continue;
      }
      if (c === " " || c === "	" || c === "\r") {
        this.pos++;
        continue;
      }
      if (c === "\\" && this.peek(1) === "\n") {
        this.pos += 2;
        this.line++;
        continue;
      }
      if (c === "#") {
        this.skipComment();
        continue;
      }
      const w = this.word(true);
      if (w) words.push(...splitOptional(w));
      else this.pos++;
    }
    return words;
  }
  skipComment() {
    while (this.pos < this.src.length && this.peek() !== "\n") this.pos++;
  }
  redirect(fd) {
    const op = REDIRECTS.find((r) => this.src.startsWith(r, this.pos)) ?? this.peek();
    this.pos += op.length;
    while (this.peek() === " " || this.peek() === "	") this.pos++;
    const line = this.line;
    const w = this.word(false);
    const target = w?.text ?? "";
    if (op === "<<" || op === "<<-") {
      this.heredocs.push({ delim: target, strip: op === "<<-" });
      this.tokens.push({ kind: "redirect", op: fd + op, target, line });
      return;
    }
    if ((op === ">&" || op === "<&") && /^([0-9]+|-)$/.test(target)) {
      this.tokens.push({ kind: "redirect", op: `${fd}${op}${target}`, target: `&${target}`, line });
      return;
    }
    this.tokens.push({ kind: "redirect", op: fd + op, target, line });
  }
  skipHeredocBodies() {
    while (this.heredocs.length > 0) {
      const { delim, strip } = this.heredocs.shift();
      while (this.pos < this.src.length) {
        const end = this.src.indexOf("\n", this.pos);
        const lineText = this.src.slice(this.pos, end === -1 ? void 0 : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        this.line++;
        if ((strip ? lineText.replace(/^\t+/, "") : lineText) === delim) break;
      }
    }
  }
  arithmeticCommand() {
    const start = this.pos;
    const line = this.line;
    this.pos = this.balancedEnd(this.pos + 1, "(", ")");
    const raw = this.src.slice(start, this.pos);
    const parts = [{ kind: "sub", raw, body: raw.slice(2, -2), line }];
    this.tokens.push({ kind: "word", word: makeWord(parts, line, false) });
  }
  /** Reads one word; null when nothing word-like is at the cursor. */
  word(inArray) {
    const startLine = this.line;
    const assignable = ASSIGN.test(this.src.slice(this.pos, this.pos + 256));
    const parts = [];
    let lit = "";
    let quoted = false;
    const flush = () => {
      if (lit) {
        parts.push({ kind: "lit", text: lit });
        lit = "";
      }
    };
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (META.has(c) || inArray && c === ")") break;
      if (c === "\\") {
        const n = this.peek(1);
        this.pos += 2;
        if (n === "\n") this.line++;
        else {
          lit += n;
          quoted = true;
        }
        continue;
      }
      if (c === "'") {
        quoted = true;
        const end = this.src.indexOf("'", this.pos + 1);
        const body = this.src.slice(this.pos + 1, end === -1 ? void 0 : end);
        lit += body;
        this.countLines(body);
        this.pos = end === -1 ? this.src.length : end + 1;
        continue;
      }
      if (c === '"') {
        quoted = true;
        flush();
        this.pos++;
        this.doubleQuoted(parts);
        continue;
      }
      if (c === "$" && this.peek(1) === "'") {
        quoted = true;
        this.pos += 2;
        lit += this.ansiC();
        continue;
      }
      if (c === "$" || c === "`") {
        const p = this.expansion(false);
        if (p) {
          flush();
          parts.push(p);
          continue;
        }
      }
      lit += c;
      this.pos++;
    }
    flush();
    if (parts.length === 0 && !quoted) return null;
    return makeWord(parts, startLine, assignable);
  }
  doubleQuoted(parts) {
    let lit = "";
    const flush = () => {
      if (lit) {
        parts.push({ kind: "lit", text: lit });
        lit = "";
      }
    };
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === "\\" && '$`"\\\n'.includes(this.peek(1))) {
        const n = this.peek(1);
        this.pos += 2;
        if (n === "\n") this.line++;
        else lit += n;
        continue;
      }
      if (c === "$" || c === "`") {
        const p = this.expansion(true);
        if (p) {
          flush();
          parts.push(p);
          continue;
        }
      }
      if (c === "\n") this.line++;
      lit += c;
      this.pos++;
    }
    flush();
    if (parts.length === 0) parts.push({ kind: "lit", text: "" });
  }
  ansiC() {
    const map = {
      n: "\n",
      t: "	",
      r: "\r",
      "\\": "\\",
      "'": "'",
      '"': '"',
      e: "\x1B",
      a: "\x07"
    };
    let out = "";
    while (this.pos < this.src.length && this.peek() !== "'") {
      const c = this.peek();
      if (c === "\\") {
        const n = this.peek(1);
        out += map[n] ?? `\\${n}`;
        this.pos += 2;
        continue;
      }
      if (c === "\n") this.line++;
      out += c;
      this.pos++;
    }
    this.pos++;
    return out;
  }
  expansion(quoted) {
    const start = this.pos;
    const line = this.line;
    const c = this.peek();
    const n = this.peek(1);
    if (c === "`") {
      let i = this.pos + 1;
      while (i < this.src.length && this.src[i] !== "`") i += this.src[i] === "\\" ? 2 : 1;
      this.pos = Math.min(i + 1, this.src.length);
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return { kind: "sub", raw, body: raw.slice(1, -1), line };
    }
    if (n === "(") {
      const arith = this.peek(2) === "(";
      this.pos = this.balancedEnd(this.pos + 1, "(", ")");
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return { kind: "sub", raw, body: arith ? "" : raw.slice(2, -1), line };
    }
    if (n === "{") {
      this.pos = this.balancedEnd(this.pos + 1, "{", "}");
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return paramPart(raw, raw.slice(2, -1), quoted, line);
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(this.src.slice(this.pos + 1, this.pos + 200));
    if (!m) return null;
    this.pos += 1 + m[0].length;
    return { kind: "param", name: m[0], index: null, op: null, arg: "", raw: `$${m[0]}`, quoted, line };
  }
  /** Index just past the bracket matching the one at `open`, skipping quotes and nested pairs. */
  nesting = 0;
  balancedEnd(openAt, open, close) {
    if (++this.nesting > MAX_NESTING) throw new NestingTooDeep(this.line);
    try {
      return this.balancedEndAt(openAt, open, close);
    } finally {
      this.nesting--;
    }
  }
  balancedEndAt(openAt, open, close) {
    let depth = 0;
    let i = openAt;
    while (i < this.src.length) {
      const c = this.src[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "'" && open === "(") {
        const e = this.src.indexOf("'", i + 1);
        i = e === -1 ? this.src.length : e + 1;
        continue;
      }
      if (c === '"') {
        i = this.skipDoubleQuote(i + 1);
        continue;
      }
      if (c === "#" && open === "(" && /[\s(]/.test(this.src[i - 1] ?? "")) {
        const e = this.src.indexOf("\n", i);
        i = e === -1 ? this.src.length : e;
        continue;
      }
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return this.src.length;
  }
  skipDoubleQuote(i) {
    while (i < this.src.length) {
      const c = this.src[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === '"') return i + 1;
      if (c === "$" && (this.src[i + 1] === "(" || this.src[i + 1] === "{")) {
        const [o, cl] = this.src[i + 1] === "(" ? ["(", ")"] : ["{", "}"];
        i = this.balancedEnd(i + 1, o, cl);
        continue;
      }
      i++;
    }
    return i;
  }
  countLines(s) {
    for (const ch of s) if (ch === "\n") this.line++;
  }
};
function paramPart(raw, inner, quoted, line) {
  const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?/.exec(inner);
  if (!m) return { kind: "param", name: "", index: null, op: inner, arg: "", raw, quoted, line };
  const rest = inner.slice(m[0].length);
  const opm = /^(:[-=+?]|[-=+?]|##?|%%?|\/\/?|:|\^\^?|,,?)/.exec(rest);
  const op = m[1] ? "#" : opm ? opm[0] : rest ? rest : null;
  const arg = opm ? rest.slice(opm[0].length) : "";
  return {
    kind: "param",
    name: m[2],
    index: m[3] ? m[3].slice(1, -1) : null,
    op: m[1] ? "length" : op,
    arg,
    raw,
    quoted,
    line
  };
}
function makeWord(parts, line, assignable) {
  const text = parts.map((p) => p.kind === "lit" ? p.text : p.raw).join("");
  const dynamic = parts.some((p) => p.kind !== "lit");
  const first = parts[0];
  let assignment = null;
  if (first?.kind === "lit") {
    const m = ASSIGN.exec(first.text);
    if (m && assignable) {
      assignment = { name: m[1], value: text.slice(m[0].length), append: m[2] === "+" };
    }
  }
  const only = parts.length === 1 && first?.kind === "param" ? first : null;
  const wholeArray = only && (only.index === "@" || only.index === "*") && (only.op === null || (only.op === ":-" || only.op === "-") && only.arg === "");
  const positional = only && (only.name === "@" || only.name === "*") && only.index === null && only.op === null;
  const from = only?.name === "@" && only.index === null && only.op === ":" ? /^\d+$/.exec(only.arg) : null;
  const arrayRef = only && wholeArray ? only.name : positional || from ? "@" : null;
  const slice = from ? { arrayFrom: Math.max(0, Number(from[0]) - 1) } : {};
  return { text, line, optional: false, dynamic, parts, assignment, arrayRef, ...slice };
}
function splitOptional(word2) {
  const p = word2.parts.length === 1 ? word2.parts[0] : void 0;
  if (!p || p.kind !== "param" || p.op !== ":+" && p.op !== "+") return [word2];
  if (p.quoted) {
    const inner = lexWords(p.arg, p.line);
    if ((p.index === "@" || p.index === "*") && inner.length && inner.every((w) => w.arrayRef))
      return inner.map((w) => ({ ...w, optional: true }));
    return [
      { ...word2, text: inner.map((w) => w.text).join(" "), optional: true, dynamic: inner.some((w) => w.dynamic) }
    ];
  }
  return lexWords(p.arg, p.line).map((w) => ({ ...w, optional: true, ...p.op === ":+" ? { guard: p.name } : {} }));
}

// src/domain/launch/dockerfile.ts
function instructions(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const directive = /^#\s*escape\s*=\s*(\S)/i.exec(lines[0] ?? "");
  const esc = directive?.[1] === "`" ? "`" : "\\";
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const start = i;
    let body = "";
    for (; i < lines.length; i++) {
      const l = lines[i];
      if (body && /^\s*(#|$)/.test(l)) continue;
      if (!body && /^\s*(#|$)/.test(l)) break;
      const t = l.replace(/\s+$/, "");
      if (t.endsWith(esc)) {
        body += t.slice(0, -1) + " ";
        continue;
      }
      body += t;
      break;
    }
    i++;
    const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(body);
    if (!m) continue;
    out.push({ op: m[1].toUpperCase(), rest: m[2].trim(), line: start + 1 });
    for (const h of body.matchAll(/<<(-?)["']?([A-Za-z_][A-Za-z0-9_]*)["']?/g)) {
      while (i < lines.length && (h[1] ? lines[i].trim() : lines[i]) !== h[2]) i++;
      i++;
    }
  }
  return out;
}
function commandWords(rest, line, path) {
  const mark = (text) => ({ text, line, optional: false, dynamic: /\$/.test(text), file: path });
  if (rest.startsWith("[")) {
    try {
      const parsed = JSON.parse(rest);
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === "string")) return parsed.map(mark);
    } catch {
    }
  }
  return lexWords(rest, line).map((w) => ({ ...w, line, file: path }));
}
var fill = (text, args) => text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+]([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a, d, b) => {
  const v = args.get(a ?? b);
  if (m.includes(":+") || m.includes("+")) return v ? d ?? "" : "";
  return v !== void 0 && v !== "" ? v : d ?? "";
});
function copyOf(rest, workdir) {
  let words;
  if (rest.startsWith("[")) {
    try {
      words = JSON.parse(rest);
    } catch {
      return null;
    }
  } else words = rest.split(/\s+/);
  const from = words.some((w) => /^--from=/.test(w));
  const paths = words.filter((w) => !w.startsWith("--"));
  if (paths.length < 2 || paths.some((p) => typeof p !== "string")) return null;
  const dest = paths.at(-1);
  return {
    from,
    src: paths.slice(0, -1),
    dest: posix.isAbsolute(dest) ? dest : posix.join(workdir, dest) + (dest.endsWith("/") ? "/" : "")
  };
}
function parseDockerfile(text, path, target = null) {
  const global = /* @__PURE__ */ new Map();
  const stages = [];
  for (const ins of instructions(text)) {
    const stage = stages.at(-1);
    if (ins.op === "ARG" && !stage) {
      for (const a of ins.rest.split(/\s+/)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/.exec(a);
        if (m) global.set(m[1], (m[2] ?? "").replace(/^["']|["']$/g, ""));
      }
    } else if (ins.op === "FROM") {
      const words = ins.rest.split(/\s+/).filter((w) => !w.startsWith("--"));
      const as = words.findIndex((w) => w.toLowerCase() === "as");
      const from = fill(words[0] ?? "", global);
      const parent = stages.find((s) => s.name !== null && s.name === from.toLowerCase());
      stages.push({
        name: as > 0 ? words[as + 1]?.toLowerCase() ?? null : null,
        from,
        fromLine: ins.line,
        // a stage built on another of the file's stages starts from that stage's image
        entrypoint: parent?.entrypoint ?? null,
        cmd: parent?.cmd ?? null,
        cmdSet: false,
        copies: parent ? [...parent.copies] : [],
        workdir: parent?.workdir ?? "/"
      });
    } else if (!stage) continue;
    else if (ins.op === "WORKDIR") stage.workdir = posix.resolve(stage.workdir, ins.rest.replace(/^["']|["']$/g, ""));
    else if (ins.op === "CMD") {
      stage.cmd = commandWords(ins.rest, ins.line, path);
      stage.cmdSet = true;
    } else if (ins.op === "ENTRYPOINT") {
      stage.entrypoint = commandWords(ins.rest, ins.line, path);
      if (!stage.cmdSet) stage.cmd = null;
    } else if (ins.op === "COPY" || ins.op === "ADD") {
      const c = copyOf(ins.rest, stage.workdir);
      if (c && !c.from) for (const src of c.src) stage.copies.push({ src, dest: c.dest });
    }
  }
  const last = (target ? stages.find((s) => s.name === target.toLowerCase()) : void 0) ?? stages.at(-1);
  if (!last) return { path, base: null, entrypoint: null, cmd: null, copies: [], workdir: "/" };
  let root = last;
  for (let n = 0; n < stages.length; n++) {
    const parent = stages.find((s) => s !== root && s.name !== null && s.name === root.from.toLowerCase());
    if (!parent) break;
    root = parent;
  }
  const base = root.from && root.from.toLowerCase() !== "scratch" ? { text: root.from, line: root.fromLine } : null;
  return { path, base, entrypoint: last.entrypoint, cmd: last.cmd, copies: last.copies, workdir: last.workdir };
}
function copiedFrom(image, target) {
  for (const c of [...image.copies].reverse()) {
    const dest = c.dest.replace(/\/+$/, "") || "/";
    const src = c.src.replace(/^\.\/?/, "").replace(/\/+$/, "");
    if (/[*?[]/.test(src)) continue;
    if (target === dest || target === posix.join(dest, posix.basename(src))) return src || posix.basename(target);
    const dir = c.src === "." || c.src.endsWith("/") || !/\.[A-Za-z0-9]+$/.test(src);
    if (dir && target.startsWith(dest === "/" ? "/" : dest + "/")) {
      const rest = target.slice(dest === "/" ? 1 : dest.length + 1);
      return src ? posix.join(src, rest) : rest;
    }
  }
  return null;
}

// src/domain/launch/started-scripts.ts
import { basename as basename2 } from "node:path";

// src/domain/launch/resolve.ts
function resolveWord(word2, env) {
  const e = word2.guard !== void 0 && env.get(word2.guard) === "" ? new Map(env).set(word2.guard, null) : env;
  let out = "";
  for (const p of word2.parts) {
    const v = resolvePart(p, e);
    if (v === void 0) return void 0;
    out += v;
  }
  return out;
}
function resolvePart(p, env) {
  if (p.kind === "lit") return p.text;
  if (p.kind === "sub") return void 0;
  if (p.index !== null) return void 0;
  const known = env.has(p.name) ? env.get(p.name) : void 0;
  const value = known === null ? void 0 : known;
  switch (p.op) {
    case null:
      return value;
    case ":-":
    case ":=":
      if (value !== void 0 && value !== "") return value;
      if (known === null) return void 0;
      return resolveText(p.arg, p.line, env);
    case "-":
    case "=":
      if (value !== void 0) return value;
      if (known === null) return void 0;
      return resolveText(p.arg, p.line, env);
    case ":+":
      if (value === void 0) return void 0;
      return value === "" ? "" : resolveText(p.arg, p.line, env);
    case "length":
      return value === void 0 ? void 0 : String(value.length);
    default:
      return void 0;
  }
}
function resolveText(text, line, env) {
  const words = lexWords(text, line);
  const values = words.map((w) => resolveWord(w, env));
  return values.some((v) => v === void 0) ? void 0 : values.join(" ");
}
function applyDefaults(word2, env) {
  for (const p of word2.parts) {
    if (p.kind === "param" && (p.op === ":=" || p.op === "=") && !env.has(p.name)) {
      const v = resolveText(p.arg, p.line, env);
      env.set(p.name, v ?? null);
    }
  }
}
function assign(env, name, value, append) {
  if (append) {
    const prev = env.get(name);
    env.set(name, prev === void 0 ? value ?? null : prev === null || value === void 0 ? null : prev + value);
  } else {
    env.set(name, value ?? null);
  }
}

// src/domain/launch/default-branch.ts
function defaultBranchFirst(ranked, lines, firstLine, env) {
  if (ranked.length < 2) return ranked;
  const taken = caseTaken(ranked, lines, firstLine, env) ?? ifTaken(ranked, lines, firstLine, env) ?? exitTaken(ranked, lines, firstLine, env);
  return taken ? [taken, ...ranked.filter((e) => e !== taken)] : ranked;
}
var VAR = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
function wordValue(word2, env, unsetEmpty = false) {
  const bare = /^"(.*)"$|^'(.*)'$/.exec(word2);
  const text = bare ? bare[1] ?? bare[2] : word2;
  const d = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)-([^$`{}]*)\}$/.exec(text);
  if (d) {
    if (!env.has(d[1])) return d[3];
    const set = env.get(d[1]);
    return set === null || set === void 0 ? void 0 : set === "" && d[2] ? d[3] : set;
  }
  const v = VAR.exec(text);
  if (!v) return /[$`]/.test(text) ? void 0 : text;
  if (unsetEmpty && !env.has(v[1])) return "";
  return env.get(v[1]) ?? void 0;
}
function evalTest(cond, env, unsetEmpty = true) {
  const body = cond.trim().replace(/\s*;?\s*then\s*$/, "");
  const parts = body.split(/\s+(\|\||&&)\s+(?=\[|test\s)/);
  if (parts.length > 1) {
    let acc = evalTest(parts[0], env, unsetEmpty);
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const v = evalTest(parts[i + 1], env, unsetEmpty);
      acc = parts[i] === "||" ? acc || v ? true : acc === false && v === false ? false : null : and(acc, v);
    }
    return acc;
  }
  const m = /^(?:\[\[\s*(.*?)\s*\]\]|\[\s*(.*?)\s*\]|test\s+(.*?))\s*;?\s*(?:then)?\s*$/.exec(cond.trim());
  if (!m) return null;
  const words = (m[1] ?? m[2] ?? m[3]).match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  if (words.length === 2 && (words[0] === "-z" || words[0] === "-n")) {
    const v = wordValue(words[1], env, unsetEmpty);
    return v === void 0 ? null : v === "" === (words[0] === "-z");
  }
  if (words.length === 2 && /^-[ef]$/.test(words[0]) && /^["']?\/(\.dockerenv|run\/\.containerenv)["']?$/.test(words[1]))
    return false;
  if (words.length !== 3) return null;
  const [a, b] = [wordValue(words[0], env), wordValue(words[2], env)];
  if (a === void 0 || b === void 0) return null;
  const numeric = NUMERIC[words[1]];
  if (numeric) return /^-?\d+$/.test(a) && /^-?\d+$/.test(b) ? numeric(Number(a), Number(b)) : null;
  if (!["=", "==", "!="].includes(words[1])) return null;
  const glob = m[1] !== void 0 && /^(?:[^"'*?]|"[^"]*"|'[^']*')*[*?]/.test(words[2]) && !/[$[]/.test(words[2]);
  const same = glob ? globRegex(words[2]).test(a) : a === b;
  return same === (words[1] !== "!=");
}
var and = (a, b) => a === null || b === null ? null : a && b;
var NUMERIC = {
  "-eq": (a, b) => a === b,
  "-ne": (a, b) => a !== b,
  "-gt": (a, b) => a > b,
  "-lt": (a, b) => a < b,
  "-ge": (a, b) => a >= b,
  "-le": (a, b) => a <= b
};
function enclosingTest(index, lines, env) {
  const own = ownIf(index, lines);
  return own === null || own.elif ? null : evalTest(own.test, env);
}
function ownIf(index, lines) {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const l = lines[i];
    if (ONE_LINE_IF.test(l)) continue;
    if (/^\s*fi\b/.test(l)) depth++;
    const m = /^\s*(el)?if\s+(.*)$/.exec(l);
    if (!m) continue;
    if (depth === 0) return { test: m[2], elif: m[1] !== void 0 };
    if (!m[1]) depth--;
  }
  return null;
}
function exitTaken(ranked, lines, firstLine, env) {
  const [a, b] = [...ranked.slice(0, 2)].sort((x, y) => x.command.line - y.command.line);
  const between = lines.slice(a.command.endLine - firstLine + 1, b.command.line - firstLine);
  const fi = between.findIndex((l) => /^\s*fi\b/.test(l));
  if (fi < 0 || !between.slice(0, fi).some((l) => /^\s*exit\b/.test(l))) return null;
  if (between.slice(0, fi).some((l) => /^\s*(else|elif)\b/.test(l))) return null;
  const holds = enclosingTest(a.command.line - firstLine, lines, env);
  return holds === null ? null : holds ? a : b;
}
function ifTaken(ranked, lines, firstLine, env) {
  const [a, b] = [...ranked.slice(0, 2)].sort((x, y) => x.command.line - y.command.line);
  const between = lines.slice(a.command.endLine - firstLine + 1, b.command.line - firstLine);
  let open = 0;
  let otherwise = false;
  for (const l of between) {
    if (ONE_LINE_IF.test(l)) continue;
    if (/^\s*if\b/.test(l)) open++;
    else if (/^\s*fi\b/.test(l)) open--;
    else if (open === 0 && /^\s*else\s*$/.test(l)) otherwise = true;
    if (open < 0) return null;
  }
  if (!otherwise) return null;
  const holds = enclosingTest(a.command.line - firstLine, lines, env);
  return holds === null ? null : holds ? a : b;
}
var ONE_LINE_IF = /^\s*if\b.*;\s*fi\s*$/;
var PATTERN = `(?:"[^"]*"|'[^']*'|[^\\s()|"';$]+)`;
var LABEL = new RegExp(`^\\s*\\(?\\s*(${PATTERN}(?:\\s*\\|\\s*${PATTERN})*)\\s*\\)`);
var CASE = /^\s*case\s+("?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?)\s+in\b/;
function branchOf(e, lines, firstLine, env) {
  let patterns = null;
  let label = -1;
  for (let i = e.command.line - firstLine; i >= 0; i--) {
    const l = lines[i];
    if (patterns === null && i < e.command.line - firstLine && (/^\s*esac\b/.test(l) || /;;\s*$/.test(l))) return null;
    const c = CASE.exec(l);
    if (c) return patterns ? { caseLine: i, value: wordValue(c[1], env), patterns, label } : null;
    if (patterns !== null) {
      if (/^\s*esac\b/.test(l)) return null;
      continue;
    }
    const m = LABEL.exec(l);
    if (m) {
      patterns = m[1].split("|").map((p) => p.trim());
      label = i;
    }
  }
  return null;
}
function globRegex(pattern) {
  const parts = pattern.match(/"[^"]*"|'[^']*'|[^"']+/g) ?? [];
  const body = parts.map((p) => /^["']/.test(p) ? escapeRegex(p.slice(1, -1)) : globPart(p)).join("");
  return new RegExp(`^${body}$`);
}
var escapeRegex = (t) => t.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
function globPart(p) {
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "\\" && i + 1 < p.length) out += escapeRegex(p[++i]);
    else if (c === "[") {
      let j = i + 1 + (p[i + 1] === "!" || p[i + 1] === "^" ? 1 : 0);
      if (p[j] === "]") j++;
      const end = p.indexOf("]", j);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      const negate = p[i + 1] === "!" || p[i + 1] === "^";
      const members = p.slice(i + 1 + (negate ? 1 : 0), end).replace(/[\\\]^[]/g, "\\$&");
      out += `[${negate ? "^" : ""}${members}]`;
      i = end;
    } else out += escapeRegex(c);
  }
  return out;
}
function caseTaken(ranked, lines, firstLine, env) {
  const branches = ranked.flatMap((e) => {
    const b = branchOf(e, lines, firstLine, env);
    return b ? [{ e, ...b }] : [];
  });
  const first = branches[0];
  if (!first || first.value === void 0) return null;
  const same = branches.filter((b) => b.caseLine === first.caseLine).sort((x, y) => x.label - y.label);
  if (same.length < 2) return null;
  const matches = (patterns) => patterns.some((p) => globRegex(p).test(first.value));
  const matching = same.find((b) => matches(b.patterns));
  if (!matching) return null;
  for (let i = first.caseLine + 1; i < matching.label; i++) {
    const m = LABEL.exec(lines[i]);
    if (m && !same.some((b) => b.label === i) && matches(m[1].split("|").map((p) => p.trim()))) return null;
  }
  return matching.e;
}

// src/domain/launch/case-arms.ts
var CaseArms = class {
  stack = [];
  /** `case WORD in`: WORD's value when known. */
  open(value) {
    this.stack.push({ value, matched: false, arm: "unknown", patterns: [] });
  }
  /** A word of the arm's pattern list (`a|b)` gives a and b). */
  pattern(word2) {
    this.stack.at(-1)?.patterns.push(word2);
  }
  /** The `)` that ends the pattern list: whether this arm runs. */
  armStarts() {
    const c = this.stack.at(-1);
    if (!c) return;
    const hit = c.value !== void 0 && c.patterns.some((p) => globRegex(p).test(c.value));
    c.arm = c.value === void 0 ? "unknown" : c.matched || !hit ? "skipped" : "taken";
    if (c.arm === "taken") c.matched = true;
    c.patterns = [];
  }
  close() {
    this.stack.pop();
  }
  /** Inside an arm that does not run by default. */
  get skipping() {
    return this.stack.some((c) => c.arm === "skipped");
  }
};

// src/domain/launch/if-arms.ts
var IfArms = class {
  stack = [];
  /** The `if` or `elif` keyword, with the rest of its line (the test) and the variables' values there. */
  test(elif, rest, env) {
    const holds = evalTest(rest, env, false);
    if (!elif) {
      this.stack.push({ branch: branchOf2(holds), anyTaken: holds === true, known: holds !== null, later: false });
      return;
    }
    const f = this.stack.at(-1);
    if (!f) return;
    f.later = true;
    if (f.anyTaken) f.branch = "skipped";
    else if (!f.known || holds === null) [f.branch, f.known] = ["unknown", false];
    else [f.branch, f.anyTaken] = [branchOf2(holds), holds];
  }
  /** `else`: runs when every test before it is known false. */
  otherwise() {
    const f = this.stack.at(-1);
    if (f) [f.branch, f.later] = [f.anyTaken ? "skipped" : f.known ? "taken" : "unknown", true];
  }
  /** In an `elif` or `else` branch of an if whose earlier tests the defaults cannot judge: either branch may run. */
  get undecidedAlternative() {
    const f = this.stack.at(-1);
    return f !== void 0 && f.later && f.branch === "unknown";
  }
  close() {
    this.stack.pop();
  }
  /** Inside a branch that does not run by default. */
  get skipping() {
    return this.stack.some((f) => f.branch === "skipped");
  }
};
var DefaultPath = class {
  ifs = new IfArms();
  /** the command being read follows a `test && ` the defaults make false (or `test || ` they make true) */
  chainSkip = false;
  /** `if`/`elif` (with the line it is on), `else`, `fi`. */
  keyword(word2, line, env) {
    if (word2 === "if" || word2 === "elif") {
      const test = new RegExp(`\\b${word2}\\s+(.*)$`).exec(line)?.[1] ?? "";
      this.ifs.test(word2 === "elif", test, env);
    } else if (word2 === "else") this.ifs.otherwise();
    else if (word2 === "fi") this.ifs.close();
  }
  /** `TEST && ` or `TEST || `: `[[ "${DET:-0}" == 1 ]] && FLAGS="--enable-deterministic-inference"`. */
  chain(op, test, env) {
    const holds = test ? testHolds(test, env) : null;
    this.chainSkip = holds !== null && (op === "&&" ? !holds : holds);
  }
  /** `;`, a newline, `&`: the chain ends. */
  separator() {
    this.chainSkip = false;
  }
  get off() {
    return this.ifs.skipping || this.chainSkip;
  }
  get undecidedAlternative() {
    return this.ifs.undecidedAlternative;
  }
  /** A word added inside a branch: optional; off by default when the branch is known not to run by default. */
  word(w, conditional) {
    const off2 = w.offDefault || this.off;
    return { ...w, optional: w.optional || conditional, ...off2 ? { offDefault: true } : {} };
  }
  /** A string variable set here: the words the assignment added are off by default; the earlier words an append
   *  (or `X="$X --flag"`) kept are not. */
  mark(prev, now) {
    if (!this.off) return now;
    const kept = prev && now.slice(0, prev.length).every((w, i) => w.text === prev[i].text && w.line === prev[i].line);
    const from = kept ? prev.length : 0;
    return now.map((w, i) => i >= from ? { ...w, offDefault: true } : w);
  }
};
function testHolds(cmd, env) {
  const first = cmd.words[0]?.text;
  if (first !== "[[" && first !== "[" && first !== "test") return null;
  const texts = cmd.words.map((w) => w.resolved ?? w.text);
  if (texts.some((t) => t.includes("$") || t.includes("'"))) return null;
  return evalTest(
    texts.map((t, i) => i === 0 || /^(\]\]|\]|==?|!=|-[a-z]{1,2})$/.test(t) ? t : `'${t}'`).join(" "),
    env,
    false
  );
}
var branchOf2 = (holds) => holds === null ? "unknown" : holds ? "taken" : "skipped";

// src/domain/launch/echo-sub.ts
var TEST_AND_ECHO = /^\s*(\[\[\s[^\]]*\]\]|\[\s[^\]]*\]|test\s[^&|;]*?)\s*&&\s*echo\s+([^;&|`$()<>]*?)\s*;?\s*$/;
function conditionalEcho(w, env) {
  const p = w.parts.length === 1 ? w.parts[0] : null;
  if (p?.kind !== "sub" || w.text.startsWith('"')) return null;
  const m = TEST_AND_ECHO.exec(p.body);
  if (!m || /^-[neE]+$/.test(m[2].trim().split(/\s+/)[0])) return null;
  const holds = evalTest(m[1], env);
  if (holds === false) return [];
  return lexWords(m[2], p.line).map((x) => ({ ...x, optional: holds !== true || x.optional }));
}

// src/domain/launch/words.ts
var WRAPPERS_WITH_ARG = {
  sudo: /* @__PURE__ */ new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"]),
  nice: /* @__PURE__ */ new Set(["-n"]),
  timeout: /* @__PURE__ */ new Set(["-s", "-k", "--signal", "--kill-after"]),
  stdbuf: /* @__PURE__ */ new Set(["-i", "-o", "-e"]),
  env: /* @__PURE__ */ new Set(["-u", "-C", "--unset", "--chdir"]),
  nohup: /* @__PURE__ */ new Set(),
  // util-linux: setsid [-c] [-f] [-w] PROGRAM; ionice [-c CLASS] [-n LEVEL] [-t] PROGRAM
  setsid: /* @__PURE__ */ new Set(),
  ionice: /* @__PURE__ */ new Set(["-c", "-n", "--class", "--classdata"]),
  exec: /* @__PURE__ */ new Set(["-a"]),
  command: /* @__PURE__ */ new Set(),
  time: /* @__PURE__ */ new Set(),
  builtin: /* @__PURE__ */ new Set(),
  eval: /* @__PURE__ */ new Set()
};
function basename(path) {
  return path.slice(path.lastIndexOf("/") + 1);
}
function programWords(words) {
  let i = 0;
  while (i < words.length) {
    const name = basename(words[i].text);
    const withArg = WRAPPERS_WITH_ARG[name];
    if (!withArg) break;
    if (name === "command" && /^-[vV]$/.test(words[i + 1]?.text ?? "")) return [];
    i++;
    if (name === "timeout") {
      while (i < words.length && words[i].text.startsWith("-")) i += withArg.has(words[i].text) ? 2 : 1;
      i++;
      continue;
    }
    while (i < words.length) {
      const t = words[i].text;
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
        i++;
        continue;
      }
      if (!t.startsWith("-") || t === "-" || t === "--") {
        if (t === "--") i++;
        break;
      }
      i += withArg.has(t) ? 2 : 1;
    }
  }
  return words.slice(i);
}
function programOf(cmd) {
  const w = programWords(cmd.words)[0];
  return w ? basename(w.text) : "";
}
function runsSubcommand(cmd, prog, sub) {
  const words = programWords(cmd.words);
  if (!words[0] || basename(words[0].resolved || words[0].text) !== prog) return null;
  let i = 1;
  if (prog === "podman" || prog === "docker") {
    while (i < words.length && words[i].text.startsWith("-")) i++;
    if (words[i]?.text === "container") i++;
  }
  if (prog === "git") {
    while (i < words.length && words[i].text.startsWith("-"))
      i += ["-C", "-c", "--git-dir", "--work-tree"].includes(words[i].text) ? 2 : 1;
  }
  return words[i]?.text === sub ? words.slice(i + 1) : null;
}
function hasMergedStderr(cmd) {
  return cmd.redirects.some(
    (r) => r.op === "2>&1" || r.op.startsWith("&>") || r.op === "2>" && r.target === "/dev/stdout"
  );
}
function assignedSource(text, index, name, line) {
  let start = 0;
  for (let i = 0; i < index; i++) {
    start = text.indexOf("\n", start) + 1;
    if (start === 0) return null;
  }
  const end = text.indexOf("\n", start);
  const m = new RegExp(`(?:^|[\\s;])(?:export\\s+|local\\s+|readonly\\s+)?${name}=(["'])`).exec(
    text.slice(start, end < 0 ? void 0 : end)
  );
  if (!m) return null;
  const quote = m[1];
  let out = "";
  for (let i = start + m.index + m[0].length; i < text.length; i++) {
    const ch = text[i];
    if (ch === quote) return { text: out, line };
    if (quote === '"' && ch === "\\" && /[$`"\\]/.test(text[i + 1] ?? "")) {
      out += text[++i];
      continue;
    }
    out += ch;
  }
  return null;
}
function heredocAt(lines, i) {
  const m = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(lines[i] ?? "");
  if (!m) return null;
  const strip = (l) => m[1] === "-" ? l.replace(/^\t+/, "") : l;
  const end = lines.findIndex((l, j) => j > i && strip(l) === m[3]);
  if (end < 0) return null;
  const body = lines.slice(i + 1, end).map(strip);
  return { body: m[2] ? body : body.map((l) => l.replace(/\\([\\$`])/g, "$1")), end };
}
var ENGINE_BIN_NAME = /^(VLLM|SGLANG|LLAMA_SERVER|LLAMA_CPP_SERVER)_?(BIN|BINARY|EXE|EXECUTABLE|CMD)$/i;
function loopValues(text, name) {
  const m = new RegExp(`^\\s*for\\s+${name}\\s+in\\s+((?:\\\\\\n|[^\\n;])*)`, "m").exec(text);
  if (!m) return [];
  return m[1].replace(/\\\n/g, " ").split(/\s+/).filter(Boolean).map((w) => w.replace(/^["']|["']$/g, ""));
}
var COMPOSE_UP = /^[^#\n]*\b(docker|podman)[ -]compose\b[^\n#]*\sup\b/m;
function functionText(lines, name) {
  if (!/^[\w-]+$/.test(name)) return null;
  const start = lines.findIndex((l) => new RegExp(`^\\s*(function\\s+)?${name}\\s*(\\(\\s*\\))?\\s*\\{`).test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, j) => j > start && /^\s*\}\s*$/.test(l));
  return lines.slice(start, end < 0 ? void 0 : end).join("\n");
}

// src/domain/launch/function-calls.ts
function soleReference(text) {
  const m = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*|[1-9])\}?"?$/.exec(text);
  return m ? m[1] : null;
}
function capturedFunction(raw) {
  const m = /^"?\$\(\s*([A-Za-z_][\w-]*)\s*\)"?$/.exec(raw.trim());
  return m ? m[1] : null;
}
function echoedWords(body, depthOf, ownDepth, strings) {
  return body.filter((c) => c.words[0]?.text === "echo").flatMap((c) => {
    const optional = depthOf(c) > ownDepth;
    return c.words.slice(1).filter((x) => !/^-[neE]+$/.test(x.text)).flatMap((x) => {
      const ref = soleReference(x.text);
      const known = ref ? strings.get(ref) : void 0;
      if (known) return known.map((k) => ({ ...k, optional: k.optional || optional }));
      if (x.dynamic) return [{ ...x, optional }];
      return x.text.split(/\s+/).filter(Boolean).map((text) => ({ ...x, text, optional }));
    });
  });
}
function knownArguments(args, strings) {
  const out = /* @__PURE__ */ new Map();
  let any = false;
  args.slice(0, 9).forEach((a, i) => {
    const ref = soleReference(a.text);
    const known = ref ? strings.get(ref) : void 0;
    if (!known) return;
    out.set(String(i + 1), known);
    if (known.length > 1) any = true;
  });
  return any ? out : null;
}
function removesContainer(body) {
  const words = body.flatMap((t) => t.kind === "word" ? [t.word.text] : []);
  return words.some((w, i) => (w === "docker" || w === "podman") && (words[i + 1] === "rm" || words[i + 2] === "rm"));
}
function anyKnownArguments(args, strings) {
  const out = /* @__PURE__ */ new Map();
  args.slice(0, 9).forEach((a, i) => {
    const ref = soleReference(a.text);
    const known = ref ? strings.get(ref) : void 0;
    if (known) out.set(String(i + 1), known);
  });
  return out.size ? out : null;
}
function forwardsAll(body) {
  return body.some((t) => t.kind === "word" && (t.word.arrayRef === "@" || /^"?\$\{?[@*]\}?"?$/.test(t.word.text)));
}
var FORWARDS = /\$(\{)?[@*]|\[[@*]\]\}/;
function forwardedRuntime(body) {
  for (const c of body) {
    const w = programWords(c.words);
    const prog = w[0] ? basename(w[0].text) : "";
    if ((prog === "docker" || prog === "podman") && w.slice(1).some((x) => FORWARDS.test(x.text))) return prog;
    const remote = prog === "ssh" ? /^(?:sudo\s+)?(docker|podman)\s/.exec(w.at(-1)?.text ?? "") : null;
    if (remote && FORWARDS.test(w.at(-1).text)) return remote[1];
  }
  return null;
}

// src/domain/launch/string-vars.ts
var StringVars = class {
  constructor(s, printed, plain) {
    this.s = s;
    this.printed = printed;
    this.plain = plain;
  }
  s;
  printed;
  plain;
  /** variables whose value ends in a space: an append to them starts a new word */
  spaced = /* @__PURE__ */ new Set();
  /** VAR=value (or +=) at `line`, `raw` as written: the words VAR holds after it, or none when unknowable. */
  set(name, value, line, append, raw, optional) {
    const prev = this.s.strings.get(name);
    const copied = capturedFunction(raw) ?? null;
    const from = copied ? this.printed.get(copied) : this.copiedString(raw, name);
    if (from && !append) {
      this.s.strings.set(
        name,
        from.map((w) => ({ ...w, optional: w.optional || optional }))
      );
      return;
    }
    const opaque = /`|\$\(/.test(raw);
    const written = opaque ? [] : this.writtenWords(name, line, raw);
    const self = new RegExp(`^\\$\\{?${name}\\}?(?=\\s|$)`).exec(raw);
    if (self && prev && !append) {
      if (opaque) this.s.strings.delete(name);
      else this.s.strings.set(name, [...prev, ...written.slice(1).map((w) => ({ ...this.plain(w), optional }))]);
      return;
    }
    const own = new RegExp(`^\\$\\{?${name}\\}?$`);
    if (prev && !append && !opaque && written.some((w) => own.test(w.text))) {
      const around = written.flatMap((w) => own.test(w.text) ? prev : [{ ...this.plain(w), optional }]);
      this.s.strings.set(name, around);
      return;
    }
    let pieces = null;
    const composed = opaque ? null : this.composed(written, name);
    if (composed) pieces = composed.map((w) => ({ ...w, optional: w.optional || optional }));
    else if (value !== void 0) {
      const texts = value.split(/\s+/).filter(Boolean);
      pieces = texts.map((text, i) => ({
        text,
        line: written.length === texts.length ? written[i].line : line,
        optional,
        dynamic: false,
        resolved: text
      }));
    } else if (!opaque) {
      pieces = written.map((w) => ({ ...this.plain(w), optional }));
    }
    const apart = prev?.length === 0 || this.spaced.has(name) || /^\s/.test(value ?? raw);
    const joins = !append || prev !== void 0 && apart;
    if (!pieces || !joins) {
      this.s.strings.delete(name);
      return;
    }
    this.s.strings.set(name, append ? [...prev, ...pieces] : pieces);
    if (/\s$/.test((value ?? raw).replace(/^["']|["']$/g, ""))) this.spaced.add(name);
    else this.spaced.delete(name);
  }
  /**
   * `CTX="${KEEP} ${PREDICT}"`: a value made of other known strings (and plain words) is their words, each at the
   * line that wrote it; null when a word is anything else.
   */
  composed(written, name) {
    if (!written.length) return null;
    const out = [];
    let refs = 0;
    for (const w of written) {
      const ref = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(w.text)?.[1];
      const known = ref && ref !== name ? this.s.strings.get(ref) : void 0;
      if (known) {
        out.push(...known);
        refs++;
      } else if (w.text.includes("$") || w.text.includes("`")) return null;
      else out.push(this.plain(w));
    }
    return refs ? out : null;
  }
  copiedString(raw, name) {
    const ref = soleReference(raw);
    return ref && ref !== name ? this.s.strings.get(ref) : void 0;
  }
  /**
   * A string's words as written, each on its own line: a string that goes on past its line is re-read from the
   * source (quotes removed, line breaks kept; a bounded slice, so no quadratic cost on long files).
   */
  writtenWords(name, line, raw) {
    const idx = line - this.s.firstLine;
    const spans = /\\\s*$/.test(this.s.lines[idx] ?? "");
    const src = spans ? assignedSource(this.s.lines.slice(idx, idx + 200).join("\n"), 0, name, line) : null;
    return lexWords(src?.text ?? raw, line);
  }
  /** `$OPTS` unquoted (bash splits it into words), or any `"$CMD"` after eval (eval re-reads it): the known words. */
  split(w, evaluated) {
    if (evaluated && w.parts.length > 1) return this.evaluatedParts(w);
    const p = w.parts.length === 1 ? w.parts[0] : null;
    if (!p || p.kind !== "param" || p.op !== null || p.index !== null || p.quoted && !evaluated) return null;
    const known = this.s.strings.get(p.name);
    return known && (known.length !== 1 || evaluated || /^-/.test(known[0].text)) ? known.map((x) => ({ ...x, optional: x.optional || w.optional })) : null;
  }
  /** `"$PREFIX_FLAG"` holding one flag word by default: that flag, at the line that set it (with any alternative
   *  an if-branch the defaults do not take gave it, off by default). */
  heldFlag(w) {
    const p = w.parts.length === 1 ? w.parts[0] : null;
    if (p?.kind !== "param" || !p.quoted || p.op !== null || p.index !== null) return void 0;
    const known = this.s.strings.get(p.name);
    const set = known?.filter((k) => !k.offDefault);
    if (set?.length !== 1 || !/^--?[A-Za-z][\w.-]*$/.test(set[0].text)) return void 0;
    return known.map((k) => ({ ...k, optional: k.optional || w.optional }));
  }
  /** `"$CMD"` quoted, CMD a known string of several words: those words (bash keeps them one argument). */
  heldWords(w) {
    const p = w.parts.length === 1 ? w.parts[0] : null;
    if (p?.kind !== "param" || !p.quoted || p.op !== null || p.index !== null) return void 0;
    const known = this.s.strings.get(p.name);
    return known && known.length > 1 ? known : void 0;
  }
  /** `eval "$ENV_VARS $CMD"`: eval re-reads the joined values, so each known variable's words in turn. */
  evaluatedParts(w) {
    const out = [];
    for (const p of w.parts) {
      if (p.kind === "lit" && !p.text.trim()) continue;
      const known = p.kind === "param" && p.op === null && p.index === null ? this.s.strings.get(p.name) : void 0;
      if (!known) return null;
      out.push(...known.map((x) => ({ ...x, optional: x.optional || w.optional })));
    }
    const first = out.findIndex((x) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(x.text));
    return first >= 0 ? out.slice(first) : null;
  }
};

// src/domain/launch/group.ts
var KEYWORDS = /* @__PURE__ */ new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "{",
  "}",
  "!",
  "time",
  "in"
]);
var OPENERS = /* @__PURE__ */ new Set(["if", "case", "while", "until", "for", "select"]);
var CLOSERS = /* @__PURE__ */ new Set(["fi", "esac", "done"]);
var SEPARATORS = /* @__PURE__ */ new Set([";", "\n", "&&", "||", "&", ";;", ";&", ";;&", ")"]);
var DECLARERS = /* @__PURE__ */ new Set(["export", "declare", "typeset", "local", "readonly"]);
function groupCommands(text, state, firstLine) {
  new Grouper(lex(text, firstLine), state).run();
}
function scriptCommands(crlfText, firstLine = 1, positional = []) {
  const text = crlfText.includes("\r\n") ? crlfText.replace(/\r\n/g, "\n") : crlfText;
  const state = {
    env: /* @__PURE__ */ new Map(),
    arrays: new Map(positional.length ? [["@", [...positional]]] : []),
    strings: /* @__PURE__ */ new Map(),
    assignments: [],
    commands: [],
    lines: text.split("\n"),
    firstLine
  };
  groupCommands(text, state, firstLine);
  state.commands.sort((a, b) => a.line - b.line);
  return { text, state };
}
var Grouper = class _Grouper {
  constructor(tokens, s, fns = {
    printed: /* @__PURE__ */ new Map(),
    forwarders: /* @__PURE__ */ new Map(),
    bodies: /* @__PURE__ */ new Map(),
    following: /* @__PURE__ */ new Set()
  }) {
    this.tokens = tokens;
    this.s = s;
    this.fns = fns;
    this.vars = new StringVars(s, fns.printed, (w) => this.plain(w));
  }
  tokens;
  s;
  fns;
  i = 0;
  draft = null;
  pipedFrom = null;
  caseDepth = 0;
  /** which arm of each open case runs by default: assignments in the others do not set the value */
  arms = new CaseArms();
  path = new DefaultPath();
  inPattern = false;
  /** depth of if/case/loop bodies: an array appended there is only sometimes in the argv */
  conditional = 0;
  fnName = null;
  fnOpen = null;
  braces = 0;
  conditionalOf = /* @__PURE__ */ new WeakMap();
  vars;
  /** lower-case variables set so far only where the defaults do not reach */
  unsetByDefault = /* @__PURE__ */ new Set();
  run() {
    while (this.i < this.tokens.length) this.step(this.tokens[this.i++]);
    this.finish(false);
  }
  step(t) {
    if (this.inPattern) {
      this.pattern(t);
      return;
    }
    if (t.kind === "op") {
      this.op(t.op);
      return;
    }
    if (t.kind === "redirect") {
      const d = this.open(t.line);
      d.redirects.push({ op: t.op, target: t.target });
      d.endLine = Math.max(d.endLine, t.line);
      return;
    }
    if (t.kind === "array") {
      this.array(t);
      return;
    }
    this.word(t.word);
  }
  pattern(t) {
    if (t.kind === "word" && t.word.text === "esac") {
      this.caseDepth--;
      this.conditional = Math.max(0, this.conditional - 1);
      this.inPattern = false;
      this.arms.close();
      return;
    }
    if (t.kind === "word") this.arms.pattern(t.word.text);
    if (t.kind === "op" && t.op === ")") {
      this.inPattern = false;
      this.arms.armStarts();
    }
  }
  op(op) {
    if (op === "(") return;
    if (op === "|" || op === "|&") {
      const cmd = this.finish(true);
      if (cmd && op === "|&") cmd.redirects.push({ op: "2>&1", target: "&1" });
      this.pipedFrom = cmd;
      return;
    }
    if (op === "&&" || op === "||") {
      this.path.chain(op, this.finish(false), this.testEnv());
      return;
    }
    if (SEPARATORS.has(op)) {
      this.finish(false);
      this.path.separator();
      if (op.startsWith(";;") || op === ";&") this.inPattern = this.caseDepth > 0;
    }
  }
  array(t) {
    const words = t.words.flatMap(
      (w) => w.arrayRef && this.s.arrays.has(w.arrayRef) ? this.s.arrays.get(w.arrayRef).slice(w.arrayFrom ?? 0) : this.vars.split(w, false) ?? [this.plain(w)]
    ).map((w) => this.path.word(w, this.conditional > 0)).map((w) => this.arms.skipping ? { ...w, offDefault: true } : w);
    const prev = t.append ? this.s.arrays.get(t.name) ?? [] : [];
    const skipped = (this.arms.skipping || this.path.off) && !t.append && this.s.arrays.has(t.name);
    const emptied = !t.append && words.length === 0 && this.conditional > 0 && this.s.arrays.get(t.name)?.length;
    const earlier = this.s.arrays.get(t.name) ?? [];
    const either = !t.append && this.path.undecidedAlternative && earlier.length > 0 && earlier.every((w) => w.optional);
    const kept = either ? earlier.filter((e) => !words.some((w) => w.text === e.text && w.line === e.line)) : prev;
    if (!emptied && !skipped) this.s.arrays.set(t.name, [...kept, ...words]);
    const d = this.open(t.line);
    d.endLine = Math.max(d.endLine, ...t.words.map((w) => w.line), t.line);
    if (d.words.length === 0)
      d.assignments.push({ name: t.name, value: words.map((w) => w.text).join(" "), line: t.line });
  }
  word(w) {
    const atStart = !this.draft || this.draft.words.length === 0 && this.draft.assignments.length === 0;
    if (atStart && this.structural(w)) return;
    this.substitutions(w);
    applyDefaults(w, this.s.env);
    const d = this.open(w.line);
    d.endLine = Math.max(d.endLine, w.line + (w.text.match(/\n/g)?.length ?? 0));
    if (w.assignment && d.words.length === 0) {
      const resolved = resolveWord(w, this.s.env);
      const fromOutside = /^\$\{(\w+):?-(""|'')?\}$/.exec(w.assignment.value);
      const value = fromOutside && ENGINE_BIN_NAME.test(fromOutside[1]) ? void 0 : resolved?.slice(w.text.length - w.assignment.value.length);
      this.assign(w.assignment.name, value, w.assignment.append);
      this.remember(w.assignment.name, value, w.line, w.assignment.append, w.assignment.value);
      d.assignments.push({ name: w.assignment.name, value: w.assignment.value, line: w.line });
      return;
    }
    if (w.arrayRef === "@" && d.positionalAt < 0) d.positionalAt = d.words.length;
    if (w.arrayRef && this.s.arrays.has(w.arrayRef)) {
      d.words.push(
        ...this.s.arrays.get(w.arrayRef).slice(w.arrayFrom ?? 0).map((x) => ({ ...x }))
      );
      return;
    }
    const printed = this.functionOutput(w);
    if (printed) {
      d.words.push(...printed.map((x) => ({ ...x, optional: x.optional || w.optional })));
      return;
    }
    const echoed = conditionalEcho(w, this.s.env);
    if (echoed) {
      d.words.push(...echoed.map((x) => this.plain(x)));
      return;
    }
    const pieces = this.vars.split(w, d.words[0]?.text === "eval");
    if (pieces) {
      d.words.push(...pieces);
      return;
    }
    const first = d.words[0]?.text;
    if (first && DECLARERS.has(first) && w.assignment) {
      const resolved = resolveWord(w, this.s.env);
      const value = resolved?.slice(w.text.length - w.assignment.value.length);
      this.assign(w.assignment.name, value, w.assignment.append);
      this.remember(w.assignment.name, value, w.line, w.assignment.append, w.assignment.value);
      this.s.assignments.push({ name: w.assignment.name, value: w.assignment.value, line: w.line });
    }
    const flag = this.vars.heldFlag(w);
    if (flag) {
      d.words.push(...flag);
      return;
    }
    const held2 = this.vars.heldWords(w);
    d.words.push(held2 ? { ...this.plain(w), held: held2 } : this.plain(w));
  }
  /** A variable set where the defaults do not reach (a known-false if-branch, `false-test && X=`) keeps its value. */
  assign(name, value, append) {
    const off2 = this.path.off || this.arms.skipping;
    if (off2 && !append && this.s.env.has(name)) return;
    if (off2 && !this.s.env.has(name) && /^[a-z_][a-z0-9_]*$/.test(name)) this.unsetByDefault.add(name);
    else if (!off2) this.unsetByDefault.delete(name);
    assign(this.s.env, name, value, append);
  }
  /** The values tests are judged with: the script's, its off-path-only lower-case variables empty. */
  testEnv() {
    if (!this.unsetByDefault.size) return this.s.env;
    const env = new Map(this.s.env);
    for (const name of this.unsetByDefault) env.set(name, "");
    return env;
  }
  /** Keeps a string variable's words (with the line they were assigned on) while its value is knowable. */
  remember(name, value, line, append, raw) {
    if (this.arms.skipping && (append || this.s.strings.has(name))) return;
    const prev = this.s.strings.get(name);
    const slice = /^"?\$(?:@|\{@(?::(\d+))?\})"?$/.exec(raw);
    const passed = slice && !append ? this.s.arrays.get("@") : void 0;
    if (passed) {
      this.s.strings.set(
        name,
        passed.slice(Math.max(0, Number(slice[1] ?? 1) - 1)).map((w) => ({ ...w }))
      );
      return;
    }
    this.vars.set(name, value, line, append, raw, this.conditional > 0);
    const now = this.s.strings.get(name);
    if (!now) return;
    const marked = this.path.mark(prev, now);
    const replaced = this.path.off && !append && prev?.length && marked.every((w) => w.offDefault);
    this.s.strings.set(name, replaced ? [...prev, ...marked] : marked);
  }
  /**
   * A `case` word's value by default. `case "$1"` in an option loop (`while [ $# -gt 0 ]`) matches no option: with
   * nothing passed, the loop never runs, so no arm's assignment is the default.
   */
  caseValue(w) {
    const value = resolveWord(w, this.s.env);
    const above = this.s.lines.slice(Math.max(0, w.line - this.s.firstLine - 3), w.line - this.s.firstLine).join("\n");
    const looped = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(w.text)?.[1];
    if (looped && new RegExp(`\\bfor\\s+${looped}(?:\\s+in\\s+"\\$@"|\\s*;?\\s*(?:do\\b|$))`, "m").test(above))
      return "";
    if (value !== void 0 || !/^"?\$\{?1\}?"?$/.test(w.text)) return value;
    return /\bwhile\s+(?:\[\[?\s*"?\$#"?\s+-(?:gt|ne)\s+0|\(\(\s*"?\$#)/.test(above) ? "" : void 0;
  }
  /** Control keywords and function headers: true when the token was structure, not a command word. */
  structural(w) {
    if (w.parts.length === 1 && w.parts[0].kind === "lit")
      this.path.keyword(w.text, this.s.lines[w.line - this.s.firstLine] ?? "", this.testEnv());
    if (OPENERS.has(w.text)) this.conditional++;
    if (CLOSERS.has(w.text)) this.conditional = Math.max(0, this.conditional - 1);
    const next = this.tokens[this.i];
    const after = this.tokens[this.i + 1];
    if (next?.kind === "op" && next.op === "(" && after?.kind === "op" && after.op === ")") {
      this.i += 2;
      this.fnName = w.text;
      return true;
    }
    if (w.text === "{" || w.text === "}") this.brace(w.text);
    switch (w.text) {
      case "for":
      case "select":
        this.loopVariable();
        this.skipUntil((t) => t.kind === "op" && (t.op === ";" || t.op === "\n"));
        return true;
      case "case": {
        const word2 = this.tokens[this.i];
        this.arms.open(word2?.kind === "word" ? this.caseValue(word2.word) : void 0);
        this.skipUntil((t) => t.kind === "word" && t.word.text === "in");
        this.caseDepth++;
        this.inPattern = true;
        return true;
      }
      case "esac":
        this.caseDepth = Math.max(0, this.caseDepth - 1);
        this.arms.close();
        return true;
      case "function": {
        const name = this.tokens[this.i];
        this.fnName = name?.kind === "word" ? name.word.text : null;
        this.i++;
        if (this.tokens[this.i]?.kind === "op" && this.tokens[this.i].op === "(") this.i += 2;
        return true;
      }
      default:
        return KEYWORDS.has(w.text) && w.parts.length === 1 && w.parts[0].kind === "lit";
    }
  }
  /** A function body's braces: at its closing one, what its echo lines print is known. */
  brace(b) {
    if (b === "{") {
      this.braces++;
      if (this.fnName)
        this.fnOpen = {
          name: this.fnName,
          start: this.s.commands.length,
          startToken: this.i,
          braces: this.braces,
          conditional: this.conditional
        };
      this.fnName = null;
      return;
    }
    const f = this.fnOpen;
    if (f && f.braces === this.braces) {
      this.finish(false);
      const body = this.s.commands.slice(f.start);
      const depth = (c) => this.conditionalOf.get(c) ?? 0;
      const echoed = echoedWords(body, depth, f.conditional, this.s.strings);
      this.fns.printed.set(f.name, echoed);
      this.fns.bodies.set(f.name, this.tokens.slice(f.startToken, this.i - 1));
      (this.s.functionBodies ??= []).push({ name: f.name, commands: body });
      const runtime = forwardedRuntime(body);
      if (runtime) this.fns.forwarders.set(f.name, runtime);
      this.fnOpen = null;
    }
    this.braces = Math.max(0, this.braces - 1);
  }
  /** `$(name)` unquoted, name a function defined above: the words its echo lines print (bash splits them). */
  functionOutput(w) {
    const p = w.parts.length === 1 ? w.parts[0] : null;
    if (p?.kind !== "sub" || w.text.startsWith('"')) return null;
    return this.fns.printed.get(p.body.trim()) ?? null;
  }
  /**
   * `for c in "$NAME"; do`: over one word the loop variable holds that word (so `docker rm -f "$c"` names it);
   * over several it holds each in turn, unknown here.
   */
  loopVariable() {
    const name = this.tokens[this.i];
    if (name?.kind !== "word" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.word.text)) return;
    const items = [];
    for (let j = this.i + 1; j < this.tokens.length; j++) {
      const t = this.tokens[j];
      if (t.kind !== "word") break;
      if (j > this.i + 1 || t.word.text !== "in") items.push(t.word);
    }
    assign(this.s.env, name.word.text, items.length === 1 ? resolveWord(items[0], this.s.env) : void 0, false);
  }
  skipUntil(stop) {
    while (this.i < this.tokens.length && !stop(this.tokens[this.i])) this.i++;
    this.i++;
  }
  substitutions(w) {
    for (const p of w.parts) {
      if (p.kind === "sub" && p.body.trim()) groupCommands(p.body, this.s, p.line);
    }
  }
  plain(w) {
    const resolved = resolveWord(w, this.s.env);
    const out = { text: w.text, line: w.line, optional: w.optional, dynamic: w.dynamic };
    if (w.dynamic && resolved !== void 0) out.resolved = resolved;
    return out;
  }
  open(line) {
    this.draft ??= {
      words: [],
      positionalAt: -1,
      assignments: [],
      redirects: [],
      line,
      endLine: line,
      pipedFrom: this.pipedFrom
    };
    this.pipedFrom = null;
    return this.draft;
  }
  finish(piped) {
    const d = this.draft;
    this.draft = null;
    if (!d || d.words.length === 0 && d.assignments.length === 0 && d.redirects.length === 0) return null;
    if (d.words.length === 0 && !piped) this.s.assignments.push(...d.assignments);
    const first = this.s.firstLine;
    const fwd = d.words[0] ? this.fns.forwarders.get(d.words[0].text) : void 0;
    if (fwd) d.words[0] = { ...d.words[0], text: fwd, dynamic: false };
    const source = this.s.lines.slice(d.line - first, d.endLine - first + 1).join("\n");
    const cmd = {
      words: d.words,
      assignments: d.assignments,
      line: d.line,
      endLine: d.endLine,
      source,
      redirects: d.redirects,
      pipeTo: null
    };
    if (d.pipedFrom) d.pipedFrom.pipeTo = cmd;
    this.s.commands.push(cmd);
    this.conditionalOf.set(cmd, this.conditional);
    if (d.words[0]?.text === "set" && d.words[1]?.text === "--") this.setPositional(d);
    this.follow(d.words);
    return cmd;
  }
  /**
   * `start "$cmd"`, start a function defined above and cmd a known command string: the function's body is read
   * again with its positional parameters bound, so the `$cmd` it runs after `local cmd="$1"` is that command
   * (once per function: a second call adds the same launches at the same lines).
   */
  follow(words) {
    const name = words[0]?.text;
    const body = name ? this.fns.bodies.get(name) : void 0;
    if (!name || !body) return;
    const args = removesContainer(body) ? anyKnownArguments(words.slice(1), this.s.strings) : knownArguments(words.slice(1), this.s.strings);
    const all = words.slice(1).some((w) => /^-/.test(w.text)) && forwardsAll(body) ? words.slice(1) : null;
    const call = `${name} ${words.slice(1).map((w) => all ? `${w.text}@${w.line}` : w.text).join(" ")}`;
    if (!args && !all || this.fns.following.has(name) || this.fns.following.has(call)) return;
    this.fns.following.add(call);
    this.fns.following.add(name);
    const saved = [...args?.keys() ?? []].map((k) => [k, this.s.strings.get(k), this.s.env.get(k)]);
    const savedAll = this.s.arrays.get("@");
    for (const [k, v] of args ?? []) {
      this.s.strings.set(k, v);
      if (v.length === 1 && (v[0].resolved !== void 0 || !v[0].dynamic))
        assign(this.s.env, k, v[0].resolved ?? v[0].text, false);
    }
    if (all) this.s.arrays.set("@", all);
    new _Grouper(body, this.s, this.fns).run();
    this.fns.following.delete(name);
    for (const [k, v, e] of saved) {
      if (v) this.s.strings.set(k, v);
      else this.s.strings.delete(k);
      assign(this.s.env, k, e ?? void 0, false);
    }
    if (!all) return;
    if (savedAll) this.s.arrays.set("@", savedAll);
    else this.s.arrays.delete("@");
  }
  /**
   * `set -- "$@" --port 8000` appends to the positional parameters, `set -- a b` replaces them: kept as the
   * array "@", so a later `exec vllm serve "$@"` has the flags in its argv (the caller's own arguments stay unknown).
   */
  setPositional(d) {
    const keeps = d.positionalAt === 2;
    const prev = keeps ? this.s.arrays.get("@") : void 0;
    const added = d.words.slice(keeps ? 2 + (prev ? prev.length : 1) : 2).map((w) => this.path.word(w, this.conditional > 0));
    this.s.arrays.set("@", [...prev ?? [], ...added]);
  }
};

// src/domain/launch/wrappers.ts
var TOOLBOX_VALUE = /* @__PURE__ */ new Set(["-c", "--container", "-d", "--distro", "-r", "--release"]);
var EXEC_VALUE = /* @__PURE__ */ new Set([
  "-e",
  "--env",
  "--env-file",
  "-u",
  "--user",
  "-w",
  "--workdir",
  "--detach-keys",
  "--cidfile",
  "--preserve-fds",
  "--preserve-fd"
]);
var EXEC_CLIS = /* @__PURE__ */ new Set(["docker", "podman", "nerdctl"]);
var SYSTEMD_RUN_VALUE = /* @__PURE__ */ new Set([
  "-u",
  "--unit",
  "-p",
  "--property",
  "--description",
  "--slice",
  "--uid",
  "--gid",
  "--nice",
  "-E",
  "--setenv",
  "--working-directory",
  "-H",
  "--host",
  "-M",
  "--machine",
  "--on-active",
  "--on-boot",
  "--on-calendar",
  "--timer-property"
]);
var RUNNERS = /* @__PURE__ */ new Set(["uv", "conda", "mamba", "micromamba", "poetry", "pipenv", "pixi", "pdm", "hatch"]);
var RUNNER_VALUE = /* @__PURE__ */ new Set([
  "-n",
  "--name",
  "-p",
  "--prefix",
  "--with",
  "--python",
  "--env-file",
  "--extra",
  "--group",
  "--project",
  "--directory",
  "--index",
  "-e",
  "--environment",
  "--manifest-path"
]);
var SRUN_VALUE = new Set(
  "-p --partition -n --ntasks -N --nodes -c --cpus-per-task -t --time -J --job-name -o --output -e --error -w --nodelist -x --exclude -A --account -q --qos -G --gpus --gres --mem --ntasks-per-node --gpus-per-node --gpus-per-task --mem-per-cpu --mem-per-gpu -C --constraint -D --chdir --mpi --export --quotatype".split(
    " "
  )
);
var NUMACTL_VALUE = /* @__PURE__ */ new Set(["-C", "-N", "-m", "-i", "-p"]);
var SCREEN_VALUE = /^-([A-Za-z]*[Scehpt]|Logfile)$/;
var APPTAINER_VALUE = /* @__PURE__ */ new Set([
  "-B",
  "--bind",
  "--mount",
  "--env",
  "--env-file",
  "-H",
  "--home",
  "--pwd",
  "-o",
  "--overlay",
  "-W",
  "--workdir",
  "-S",
  "--scratch",
  "--security",
  "--network",
  "--network-args",
  "--app",
  "--hostname",
  "--dns",
  "--no-mount",
  "--add-caps",
  "--drop-caps",
  "--apply-cgroups",
  "--cpus",
  "--memory"
]);
var TMUX_GLOBAL_VALUE = /* @__PURE__ */ new Set(["-L", "-S", "-f", "-c", "-T"]);
var TMUX_VALUE = /* @__PURE__ */ new Set(["-c", "-e", "-F", "-f", "-n", "-s", "-t", "-x", "-y", "-l"]);
var TMUX_STARTS = /* @__PURE__ */ new Set([
  "new-session",
  "new",
  "new-window",
  "neww",
  "split-window",
  "splitw",
  "respawn-pane",
  "respawnp",
  "respawn-window",
  "respawnw",
  "send-keys",
  "send"
]);
function skipOptions(w, i, withValue) {
  while (i < w.length && w[i].text.startsWith("-")) i += withValue.has(w[i].text) ? 2 : 1;
  return i;
}
function peel(words) {
  let w = programWords(words);
  for (let guard = 0; guard < 4 && w[0]; guard++) {
    const known = w[0].resolved && /^\S+$/.test(w[0].resolved) ? w[0].resolved : w[0].text;
    const prog = basename(known);
    if (prog === "systemd-run") w = programWords(w.slice(skipOptions(w, 1, SYSTEMD_RUN_VALUE)));
    else if (RUNNERS.has(prog) && w[1]?.text === "run") w = runnerProgram(w, prog);
    else if (prog === "taskset") w = programWords(w.slice(skipOptions(w, 1, /* @__PURE__ */ new Set()) + 1));
    else if (prog === "numactl") w = programWords(w.slice(skipOptions(w, 1, NUMACTL_VALUE)));
    else if (prog === "nsys" && (w[1]?.text === "profile" || w[1]?.text === "launch"))
      w = programWords(w.slice(nsysProgram(w)));
    else if (prog === "srun") w = programWords(w.slice(skipOptions(w, 1, SRUN_VALUE)));
    else if (prog === "screen")
      w = w.some((x) => /^-[A-Za-z]*X$/.test(x.text)) ? [] : programWords(w.slice(skipScreen(w)));
    else if ((prog === "apptainer" || prog === "singularity") && w[1]?.text === "exec")
      w = programWords(w.slice(skipOptions(w, 2, APPTAINER_VALUE) + 1));
    else if (prog === "distrobox" && w[1]?.text === "enter") {
      const dash = w.findIndex((x) => x.text === "--");
      w = dash > 1 ? programWords(w.slice(dash + 1)) : [];
    } else if (prog === "toolbox" && w[1]?.text === "run") w = programWords(w.slice(skipOptions(w, 2, TOOLBOX_VALUE)));
    else if (EXEC_CLIS.has(prog) && execAt(w) > 0) w = programWords(w.slice(execProgram(w)));
    else break;
  }
  return w;
}
function runnerProgram(w, prog) {
  let i = 2;
  while (i < w.length && w[i].text.startsWith("-")) {
    if (prog === "uv" && (w[i].text === "-m" || w[i].text === "--module"))
      return [{ ...w[i], text: "python" }, { ...w[i], text: "-m" }, ...w.slice(i + 1)];
    i += RUNNER_VALUE.has(w[i].text) ? 2 : 1;
  }
  return programWords(w.slice(i));
}
function execAt(w) {
  if (w[1]?.text === "exec") return 2;
  return w[1]?.text === "container" && w[2]?.text === "exec" ? 3 : 0;
}
function execProgram(w) {
  const at2 = execAt(w);
  const i = skipOptions(w, at2, EXEC_VALUE);
  const latest = w.slice(at2, i).some((x) => x.text === "-l" || x.text === "--latest");
  return latest ? i : i + 1;
}
function nsysProgram(w) {
  let i = 2;
  while (i < w.length && w[i].text.startsWith("-")) i += w[i].text.includes("=") ? 1 : 2;
  return i;
}
function skipScreen(w) {
  let i = 1;
  while (i < w.length && w[i].text.startsWith("-")) i += SCREEN_VALUE.test(w[i].text) ? 2 : 1;
  return i;
}
function tmuxCommand(w) {
  let i = skipOptions(w, 1, TMUX_GLOBAL_VALUE);
  if (!TMUX_STARTS.has(w[i]?.text ?? "")) return null;
  const keys = w[i].text.startsWith("send");
  i = skipOptions(w, i + 1, TMUX_VALUE);
  const rest = w.slice(i);
  return keys ? rest.filter((x) => !/^(Enter|C-m|KPEnter)$/.test(x.text)) : rest;
}

// src/domain/launch/started-scripts.ts
var SHELLS = /^(ba|da|z|k)?sh$/;
var scriptWord = (w) => w.includes("/") || /\.((ba)?sh|command)$/.test(w);
function runs(c) {
  const w = peel(c.words).map((x) => x.text);
  const prog = basename2(w[0] ?? "");
  if (SHELLS.test(prog)) return w[1] && !w[1].startsWith("-") ? [w[1]] : [];
  if ((prog === "podman" || prog === "docker") && w[1] === "exec") return w.slice(2).filter(scriptWord);
  if (prog === "systemctl") {
    const args = peel(c.words).slice(1).map((x) => x.resolved || x.text).filter((x) => !x.startsWith("-"));
    const starts = /^(start|restart|try-restart|reload-or-restart)$/.test(args[0] ?? "");
    if (starts || args[0] === "enable" && w.includes("--now"))
      return args.slice(1).map((u) => `${UNIT_NAME}${/\.service$/.test(u) ? u : `${u}.service`}`);
  }
  if (prog === "tmux" && w[1] === "send-keys" && w.some((x) => x === "C-m" || x === "Enter"))
    return w.slice(2).flatMap((x) => /\s/.test(x) || scriptWord(x) ? typed(x) : []);
  if (prog === "tmux" && /^(new-window|neww|new-session|new|split-window|splitw)$/.test(w[1] ?? "")) {
    const last = peel(c.words).at(-1);
    const line = last?.resolved ?? last?.text ?? "";
    if (w.length <= 2 || line.startsWith("-")) return [];
    return last?.held ? runs({ ...c, words: last.held }) : typed(line);
  }
  return w[0] && scriptWord(w[0]) ? [w[0]] : [];
}
var commandsOf = (text) => scriptCommands(text).state.commands;
var UNIT_NAME = "systemctl:";
var typed = (line) => commandsOf(line).flatMap(runs);
function startedScripts(text) {
  const out = /* @__PURE__ */ new Set();
  if (!/\.(sh|command)\b|\bsystemctl\b/.test(text)) return out;
  for (const c of commandsOf(text)) for (const n of runs(c)) out.add(n);
  for (const m of text.matchAll(/^\s*ExecStart\s*=.*$/gm))
    for (const w of m[0].matchAll(/[^\s'"=;&|]+\.sh\b/g)) out.add(w[0]);
  return out;
}

// src/domain/launch/compose-build.ts
function dockerfileOf(y, svc, dir, expand) {
  const build = y.get(svc, "build");
  if (!build) return null;
  const context = expand(y.str(build) ?? y.str(y.get(build, "context")) ?? ".") || ".";
  if (/^[a-z+]+:\/\/|^git@|\.git(#|$)/i.test(context)) return null;
  const ctx = posix2.normalize(posix2.join(dir || ".", context));
  if (ctx.startsWith("../")) return null;
  const inline = y.str(y.get(build, "dockerfile_inline"));
  const named = y.str(y.get(build, "dockerfile"));
  const file = expand(named ?? "Dockerfile") || "Dockerfile";
  const target = y.str(y.get(build, "target"));
  const fallback = named === null ? posix2.normalize(posix2.join(ctx, "dockerfile")) : null;
  const path = posix2.normalize(posix2.join(ctx, file));
  return { context: ctx, path, fallback, inline, target: target ? expand(target) : null };
}
var WRAPPERS = /^(?:\S*\/)?(tini|dumb-init|env|exec|nohup)$/;
var SHELL = /^(?:\S*\/)?(ba|da|z)?sh$/;
var PYTHON = /^(?:\S*\/)?python[0-9.]*$/;
function programPath(words) {
  let i = 0;
  while (words[i] && (WRAPPERS.test(words[i].text) || words[i].text === "--" || /^-/.test(words[i].text))) i++;
  const first = words[i]?.text;
  if (!first) return null;
  if (PYTHON.test(first)) {
    const file = words.slice(i + 1).find((w) => !w.text.startsWith("-"));
    return file && /\.py$/.test(file.text) && !words.slice(i + 1).some((w) => w.text === "-m") ? file.text : null;
  }
  if (!SHELL.test(first)) return first;
  const c = words.findIndex((w, j) => j > i && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.text));
  if (c > 0 && words[c + 1]) return programPath(lexWords(words[c + 1].text, words[c + 1].line));
  const script = words.slice(i + 1).find((w) => !w.text.startsWith("-"));
  return script?.text ?? null;
}
function scriptIn(image, context, command) {
  const program = programPath(image.entrypoint ?? command ?? image.cmd ?? []);
  if (!program || program.includes("$")) return null;
  const inImage = posix2.isAbsolute(program) ? program : posix2.resolve(image.workdir, program);
  const src = copiedFrom(image, inImage);
  return src === null ? null : { inImage, path: posix2.normalize(posix2.join(context, src)) };
}
function importedModules(image, context, inImage, source) {
  const names = [...source.matchAll(/^\s*(?:from\s+([.\w]+)\s+import\b|import\s+([\w.]+))/gm)].map(
    (m) => m[1] ?? m[2]
  );
  const out = /* @__PURE__ */ new Set();
  for (const name of names.slice(0, 64)) {
    const rel = /^\.+/.exec(name)?.[0].length ?? 0;
    const file = `${name.slice(rel).split(".").join("/")}.py`;
    if (file === ".py") continue;
    const bases = rel ? [posix2.resolve(posix2.dirname(inImage), ...Array(rel - 1).fill(".."))] : [image.workdir, posix2.dirname(inImage)];
    for (const base of bases) {
      const src = copiedFrom(image, posix2.join(base, file));
      if (src !== null) out.add(posix2.normalize(posix2.join(context, src)));
    }
  }
  return [...out].slice(0, 16);
}
function buildReads(y, svc, dir, read, command, expand) {
  const out = /* @__PURE__ */ new Map();
  const found = dockerfileOf(y, svc, dir, expand);
  if (!found || found.inline !== null) return out;
  const own = read(found.path);
  const df = own === null && found.fallback ? { ...found, path: found.fallback } : found;
  const text = own ?? (df.path !== found.path ? read(df.path) : null);
  if (text === null) return out;
  out.set(df.path, text);
  const image = parseDockerfile(text, df.path, df.target);
  const script = scriptIn(image, df.context, command);
  const body = script === null ? null : read(script.path);
  if (script === null || body === null) return out;
  out.set(script.path, body);
  if (/\.py$/.test(script.path))
    for (const m of importedModules(image, df.context, script.inImage, body)) {
      const t = m === script.path ? null : read(m);
      if (t !== null) out.set(m, t);
    }
  else for (const m of handedScripts(image, df.context, script.inImage, body, read)) out.set(m.path, m.text);
  return out;
}
function builtImage(y, svc, dir, builds, command, expand) {
  const found = dockerfileOf(y, svc, dir, expand);
  const fallback = found && !builds.has(found.path) && found.fallback && builds.has(found.fallback);
  const df = found && fallback ? { ...found, path: found.fallback } : found;
  const text = df ? df.inline ?? builds.get(df.path) : void 0;
  if (!df || text === void 0) return null;
  const image = parseDockerfile(text, df.inline !== null ? "dockerfile_inline" : df.path, df.target);
  const at2 = scriptIn(image, df.context, command);
  const body = at2 === null ? void 0 : builds.get(at2.path);
  if (at2 === null || body === void 0) return { image, script: null };
  const modules = /\.py$/.test(at2.path) ? importedModules(image, df.context, at2.inImage, body).flatMap((m) => {
    const text2 = m === at2.path ? void 0 : builds.get(m);
    return text2 === void 0 ? [] : [{ path: m, text: text2 }];
  }) : handedScripts(image, df.context, at2.inImage, body, (p) => builds.get(p) ?? null);
  return { image, script: { path: at2.path, text: body, ...modules.length ? { modules } : {} } };
}
function llamaCppStage(y, svc, dir, expand) {
  const df = dockerfileOf(y, svc, dir, expand);
  return df?.target && /(^|\/)\.devops\/[^/]*\.Dockerfile$/.test(df.path) ? df.target : null;
}
function handedScripts(image, context, inImage, body, read) {
  const out = [];
  const seen = /* @__PURE__ */ new Set([inImage]);
  let level = [{ inImage, text: body }];
  for (let depth = 0; depth < 3 && level.length && out.length < 8; depth++) {
    const next = [];
    for (const s of level)
      for (const written of startedScripts(s.text)) {
        if (written.startsWith(UNIT_NAME)) continue;
        for (const at2 of whereRun(written, s.inImage, image.workdir)) {
          const src = seen.has(at2) ? null : copiedFrom(image, at2);
          const path = src === null ? null : posix2.normalize(posix2.join(context, src));
          const text = path === null ? null : read(path);
          if (path === null || text === null) continue;
          seen.add(at2);
          out.push({ path, text });
          next.push({ inImage: at2, text });
          break;
        }
      }
    level = next;
  }
  return out.slice(0, 8);
}
function whereRun(written, from, workdir) {
  const name = posix2.basename(written);
  if (written.includes("$")) return name.includes("$") ? [] : [posix2.join(posix2.dirname(from), name)];
  if (posix2.isAbsolute(written)) return [posix2.normalize(written)];
  return [posix2.resolve(posix2.dirname(from), written), posix2.resolve(workdir, written)];
}

// src/domain/launch/compose-mount.ts
import { posix as posix3 } from "node:path";

// src/domain/launch/engine.ts
var PLACEHOLDER_IMAGE = /placeholder|replace[-_]?(with|me)|change[-_]?me|your[-_]image|(^|\/)your[-_][^/]*$/i;
var SHELL2 = /^(ba|da|z|k)?sh$/;
var PYTHON2 = /^python[0-9.]*$/;
var PROGRAM = /^(python[0-9.]*|(ba|da|z|k)?sh|vllm|sglang|node|env|sleep|ls|cat|pip[0-9.]*|huggingface-cli|hf|test|true|echo|printenv|stat|find|mkdir|chown|chmod|rm|cp|mv|du|df|nvidia-smi|rocm-smi|nsenter|curl|wget)$/;
var VLLM_TYPICAL = /* @__PURE__ */ new Set([
  "--model",
  "--served-model-name",
  "--max-model-len",
  "--tensor-parallel-size",
  "--gpu-memory-utilization",
  "--reasoning-parser",
  "--tool-call-parser",
  "--enable-auto-tool-choice",
  "--kv-cache-dtype",
  "--max-num-seqs",
  "--chat-template"
]);
function programName(w, h) {
  const text = (w.resolved === "" && w.dynamic ? void 0 : w.resolved) ?? (w.dynamic ? h.guess(w.text) : w.text);
  const name = basename(text.replace(/["'{}]/g, "")).replace(/\.exe$/i, "");
  const held2 = w.dynamic && w.resolved === void 0 ? /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(name) : null;
  if (held2 && /^LLAMA_SERVER(_(BIN|PATH|EXE|CMD))?$/i.test(held2[1])) return "llama-server";
  if (held2 && /^LLAMA_?CPP(_SERVER)?_(BIN|BINARY|PATH|EXE|CMD)$/i.test(held2[1])) return LLAMA_CPP_BINARY;
  return name;
}
var LLAMA_CPP_BINARY = "(a llama.cpp program)";
var PRINTS_AND_EXITS = /* @__PURE__ */ new Set([
  "-h",
  "--help",
  "--usage",
  "--version",
  "--list-devices",
  "--completion-bash",
  "-cl",
  "--cache-list"
]);
function printsAndExits(args) {
  return args.some((w) => PRINTS_AND_EXITS.has(w.text));
}
function directEngine(words, h) {
  const w = peel(words);
  const first = w[0];
  if (!first) return null;
  const evalAt = words.findIndex((x) => x.text === "eval");
  if (evalAt >= 0 && evalAt < words.indexOf(first) && /\s/.test(first.text.trim()))
    return h.nested(w.map((x) => x.text).join(" "), first.line);
  const held2 = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(first.text);
  const heldSource = held2 && first.dynamic ? h.source(held2[1]) : null;
  const substituted = heldSource && /^\s*(\$\(|`)/.test(heldSource.text);
  if (heldSource && !substituted && /^\s*[^\s-]\S*\s+\S/.test(heldSource.text))
    return h.nested(heldSource.text, heldSource.line);
  const prog = programName(first, h);
  if (prog === "vllm" && w[1]?.text === "serve") return { kind: "vllm", args: w.slice(2) };
  if (/\.(ba)?sh$/.test(first.text) && w.length > 2) {
    const inner = directEngine(w.slice(1), h);
    if (inner) return inner;
  }
  if (prog === "sglang" && w[1]?.text === "serve") return { kind: "sglang", args: w.slice(2) };
  if (prog === "tmux") {
    const cmd = tmuxCommand(w);
    if (cmd?.length === 1) return h.nested(cmd[0].text, cmd[0].line);
    return cmd && cmd.length > 1 ? directEngine(cmd, h) : null;
  }
  if (prog === "llama-server" || prog === "server" && h.llama) return { kind: "llama.cpp", args: w.slice(1) };
  const named = /^[a-z][\w.]*[-_](vllm|sglang)[-_]server$/.exec(prog)?.[1];
  if (named) return { kind: named === "vllm" ? "vllm" : "sglang", args: w.slice(1) };
  if (prog === LLAMA_CPP_BINARY && w.some((x) => /^--(host|port)(=|$)/.test(x.text)))
    return { kind: "llama.cpp", args: w.slice(1) };
  if (PYTHON2.test(prog) || first.dynamic) {
    let i = 1;
    while (w[i] && /^-[A-Za-z]+$/.test(w[i].text) && w[i].text !== "-m") i++;
    if (w[i]?.text === "-m") {
      const mod = w[i + 1]?.text ?? "";
      const kind = /^vllm\.entrypoints\./.test(mod) ? "vllm" : mod === "sglang.launch_server" ? "sglang" : null;
      return kind ? { kind, args: w.slice(i + 2) } : null;
    }
  }
  if (/^(sg|su|runuser)$/.test(prog)) {
    const c = w.findIndex((x, j) => j > 0 && (x.text === "-c" || x.text === "--command"));
    const script = c > 0 ? w[c + 1] : void 0;
    if (script) return h.nested(script.text, script.line);
  }
  if (SHELL2.test(prog)) {
    for (let i = 1; i < w.length && w[i].text.startsWith("-"); i++) {
      if (!/^-[A-Za-z]*c[A-Za-z]*$/.test(w[i].text)) continue;
      let s = i + 1;
      while (w[s] && w[s].text.startsWith("-") && w[s].text !== "--") s++;
      if (w[s]?.text === "--") s++;
      const script2 = w[s];
      if (!script2) continue;
      const ref = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(script2.text);
      const src = ref ? h.source(ref[1]) : null;
      const read = src ? h.nested(src.text, src.line) : h.nested(script2.text, script2.line, w.slice(s + 2));
      const held3 = script2.held ? directEngine(script2.held, h) : null;
      const count = (f) => f ? readFlags(f.args).flags.length : -1;
      return held3 && count(held3) > count(read) ? held3 : read;
    }
    const script = skipOptions(w, 1, /* @__PURE__ */ new Set());
    if (w[script] && /\.(sh|bash)$/.test(w[script].text)) return directEngine(w.slice(script + 1), h);
  }
  return null;
}
function imageEngine(ref) {
  const name = ref.replace(/@sha256:.*$/, "");
  const image = name.replace(/:[^/]*$/, "").split("/").at(-1) ?? "";
  if (APP_WORDS.test(image)) return null;
  const named = name.split("/").at(-1) ?? "";
  if (/sglang/i.test(named)) return "sglang";
  if (OTHER_SERVERS.test(name.replace(/:[^/]*$/, ""))) return null;
  if (/llama[._-]?cpp|llama-server/i.test(named)) return "llama.cpp";
  if (/vllm/i.test(named)) return "vllm";
  return null;
}
var APP_WORDS = /(^|[-_.])(ui|webui|gradio|streamlit|client|proxy|router|gateway|rag|frontend|bench|benchmark|exporter|operator|controller|pgvector|sidecar|sim|simulator|mock|stub|fake|dummy|emulator|consumer|producer)([-_.]|$)/i;
var OTHER_SERVERS = /(^|\/)(modular\/max[^/]*|[^/]*text-generation-inference[^/]*|ollama|[^/]*lmdeploy[^/]*|[^/]*tritonserver[^/]*|[^/]*tensorrt[-_]llm[^/]*|localai|[^/]*aphrodite[^/]*|[^/]*tabbyapi[^/]*|[^/]*llama[-_.]?cpp[-_.]?python[^/]*|allenporter\/llama-cpp-server[^/]*)$/i;
var ROUTER_IMAGE = /(^|\/)llama-swap$/i;
var LLAMA_TYPICAL = /* @__PURE__ */ new Set([
  "-ngl",
  "--n-gpu-layers",
  "--gpu-layers",
  "-fa",
  "--flash-attn",
  "--ctx-size",
  "-c",
  "--jinja",
  "-np",
  "--parallel",
  "-hf",
  "--hf-repo",
  "--mlock",
  "--no-mmap",
  "-ctk",
  "--cache-type-k"
]);
function launcherKind(words) {
  const i = /^(?:\S*\/)?(?:python[\d.]*|(?:ba|da)?sh)$/.test(words[0]?.text ?? "") ? 1 : 0;
  const name = (words[i]?.text ?? "").split("/").at(-1).toLowerCase();
  const m = /^([\w-]*)\.(?:py|sh)$/.exec(name);
  if (!m || /bench|test|eval|client|proxy|router/.test(m[1]) || !/launch|serve|server|start|run/.test(m[1]))
    return null;
  const engine = /(?:^|[_-])(vllm|sglang|llama[_-]?(?:cpp|server))(?:[_-]|$)/.exec(m[1])?.[1];
  return engine === void 0 ? null : engine === "vllm" ? "vllm" : engine === "sglang" ? "sglang" : "llama.cpp";
}
function interactiveShell(run, untagged) {
  const has = (name) => run.options.some((o) => o.name === name);
  const gpu = has("--gpus") || has("--runtime") || run.devices.length > 0;
  const attached = has("--interactive") && has("--tty") && !has("--detach");
  if (attached && /^nvcr\.io\/nvidia\//.test(untagged)) return true;
  return attached && !untagged.includes("/") && !gpu && !run.publish.length;
}
function scriptHandedArgs(run, words) {
  const kind = run.image ? imageEngine(run.image.resolved ?? run.image.text) : null;
  const c = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.text));
  if (!kind || !SHELL2.test(basename(words[0]?.text ?? "")) || c < 0 || !words[c + 1]) return null;
  const inner = lexWords(words[c + 1].text, words[c + 1].line).map((w) => ({ ...w, line: words[c + 1].line }));
  if (!mountedScript(run, inner) || !/\.sh$/.test(inner[0]?.text ?? "")) return null;
  const args = inner.slice(1);
  return args.some((w) => isFlagWord(w.text)) ? { kind, args } : null;
}
function mountedScript(run, words) {
  const scripts = words.slice(0, 3).map((w) => w.text.replace(/^["']|["']$/g, "")).filter((t) => /\.sh$/.test(t));
  return scripts.some((s) => run.volumes.some((v) => v.target === s && /\.sh$/.test(v.source)));
}
function scriptOnEngineImage(run, words) {
  const kind = run.image ? imageEngine(run.image.resolved ?? run.image.text) : null;
  const script = words.slice(0, 3).some((w) => /^\S*\.sh$/.test(w.text.replace(/^["']|["']$/g, "")));
  return kind && script ? kind : null;
}
function containerEngine(run, h) {
  const after = run.engineArgs;
  const entry = run.options.filter((o) => o.name === "--entrypoint" && o.value).at(-1);
  if (entry) {
    const text = (entry.resolvedValue ?? entry.value).replace(/^\[\s*"?|"?\s*\]$/g, "");
    const words = [{ text, line: entry.line, optional: false, dynamic: false }, ...after];
    const found = directEngine(words, h);
    if (found) return found;
    const handed = scriptHandedArgs(run, words);
    if (handed) return handed;
    const kind2 = scriptOnEngineImage(run, words);
    return kind2 ? { kind: kind2, args: [], builtBy: words.map((w) => w.text).join(" ") } : null;
  }
  const first = after[0];
  if (first && !isFlagWord(first.text)) {
    const found = directEngine(after, h);
    if (found) return found;
    const own = launcherKind(after) ?? scriptOnEngineImage(run, after);
    if (own && (run.options.some((o) => o.name === "--gpus") || mountedScript(run, after)))
      return { kind: own, args: [], builtBy: after.map((w) => w.text).join(" ") };
    if (PROGRAM.test(programName(first, h)) || /^\/(usr\/)?s?bin\//.test(first.text)) return null;
  }
  const ref = run.image ? run.image.resolved ?? run.image.text : "";
  if (PLACEHOLDER_IMAGE.test(ref.replace(/:[^/]*$/, ""))) return null;
  const untagged = ref.replace(/@sha256:.*$/, "").replace(/:[^/]*$/, "");
  const tagOnly = imageEngine(ref) !== null && imageEngine(untagged) === null;
  if (first && /^[A-Za-z][\w.-]*$/.test(first.text) && tagOnly) return null;
  if (tagOnly && after.length === 0) return null;
  if (ROUTER_IMAGE.test(untagged)) return null;
  if (after.length === 0 && interactiveShell(run, untagged)) return null;
  const kind = ref ? imageEngine(ref) : null;
  if (kind === "llama.cpp" && /:full(-|$)/.test(ref.replace(/@sha256:.*$/, "")))
    return first && (first.text === "--server" || first.text === "-s") ? { kind, args: after.slice(1) } : null;
  if (kind) return { kind, args: [...after] };
  if (APP_WORDS.test(
    ref.replace(/[@:][^/]*$/, "").split("/").at(-1) ?? ""
  ))
    return null;
  if (OTHER_SERVERS.test(ref.replace(/[@:][^/]*$/, ""))) return null;
  const bare = (w) => w !== void 0 && /^[A-Za-z][\w.-]*$/.test(w.text);
  if (first && first.text !== "serve" && bare(first) && bare(after[1])) return null;
  if (first && bare(first) && !/serve|vllm|sglang|llama|python|^-/i.test(first.text)) return null;
  if (first && /(^|\/)llama-(?!server$)[\w-]+$/.test(first.text)) return null;
  const flags = readFlags(after).flags;
  const llamaish = flags.some((f) => LLAMA_TYPICAL.has(f.name)) || flags.some((f) => /\.gguf\b/i.test(f.value ?? ""));
  if (llamaish) return { kind: "llama.cpp", args: [...after] };
  if (flags.some((f) => /-bind-address$|^--leader-elect|^--kubeconfig$|^--zap-/.test(f.name))) return null;
  const vllmish = flags.some((f) => VLLM_TYPICAL.has(f.name.replace(/_/g, "-")));
  const modelLike = (w) => w !== void 0 && w.text.includes("/") && !/\s/.test(w.text) && !isFlagWord(w.text) && !/\.(sh|bash|py|pl|rb|js)$/.test(w.text) && !/(^|\/)s?bin\/[^/]+$/.test(w.text);
  const modelFirst = first !== void 0 && (first.text === "serve" ? modelLike(after[1]) : modelLike(first));
  return vllmish || modelFirst ? { kind: "vllm", args: [...after] } : null;
}

// src/domain/launch/compose-mount.ts
var SCRIPT = /(\.(sh|bash|py)|\/[^./]+)$/;
function mountedScriptPath(y, svc, dir, entrypoint, command, expand) {
  const image = y.str(y.get(svc, "image"));
  const words = entrypoint ?? (!y.get(svc, "build") && !(image && imageEngine(expand(image))) ? command : null);
  const program = words?.[0] && !words[0].text.startsWith("-") ? programPath(words) : null;
  if (!program || !posix3.isAbsolute(program) || program.includes("$") || !SCRIPT.test(program)) return null;
  for (const v of y.items(y.get(svc, "volumes"))) {
    const short2 = y.str(v);
    const [source, target] = short2 !== null ? expand(short2).split(":") : y.str(y.get(v, "type")) === "bind" || y.str(y.get(v, "type")) === null ? [expand(y.str(y.get(v, "source")) ?? ""), y.str(y.get(v, "target")) ?? ""] : ["", ""];
    if (!source || !target || !source.startsWith(".")) continue;
    const to = posix3.normalize(target).replace(/\/$/, "");
    const rest = program === to ? "" : program.startsWith(`${to}/`) ? program.slice(to.length + 1) : null;
    if (rest === null) continue;
    const path = posix3.normalize(posix3.join(dir || ".", source, rest));
    return path.startsWith("../") || path === ".." ? null : { path, target: program };
  }
  return null;
}
function mountedEngine(run) {
  const m = run.mounted;
  if (!m?.scriptEngine) return void 0;
  const at2 = run.engineArgs.findIndex((w) => w.text === m.target);
  const args = m.scriptEngine.passesArgs && at2 >= 0 ? run.engineArgs.slice(at2 + 1) : [];
  return { kind: m.scriptEngine.kind, args, builtBy: `${m.path}, mounted at ${m.target}` };
}

// src/domain/launch/yaml-node.ts
var import_yaml = __toESM(require_dist(), 1);
function tabIndented(text) {
  const at2 = text.split("\n").findIndex((l) => /^\t+[ \t]*[^\s#]/.test(l));
  return at2 < 0 ? null : at2 + 1;
}
function yamlError(text) {
  const tab = tabIndented(text);
  if (tab !== null)
    return `not valid YAML at line ${tab}: a tab character in the indentation (YAML allows spaces only)`;
  try {
    const err = (0, import_yaml.parseAllDocuments)(text, { uniqueKeys: false }).flatMap((d) => d.errors).at(0);
    if (!err) return null;
    const line = err.linePos?.[0].line;
    return `not valid YAML${line ? ` at line ${line}` : ""}: ${err.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}`;
  } catch (e) {
    return `not valid YAML: ${e.message.split("\n")[0]}`;
  }
}
function readYaml(text) {
  const counter = new import_yaml.LineCounter();
  let docs;
  try {
    docs = (0, import_yaml.parseAllDocuments)(text, { lineCounter: counter, uniqueKeys: false });
  } catch {
    return null;
  }
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0) || tabIndented(text) !== null) return null;
  return { text, docs, lineAt: (offset) => counter.linePos(offset).line };
}
function aliasTargets(doc) {
  const out = /* @__PURE__ */ new Map();
  const anchors = /* @__PURE__ */ new Map();
  (0, import_yaml.visit)(doc, {
    Node: (_key, node) => {
      if ((0, import_yaml.isAlias)(node)) {
        const to = anchors.get(node.source);
        if (to) out.set(node, to);
      } else if (node.anchor) anchors.set(node.anchor, node);
    }
  });
  return out;
}
var YamlReader = class {
  constructor(src, doc) {
    this.src = src;
    this.doc = doc;
  }
  src;
  doc;
  aliases = null;
  /** The node itself, an alias replaced by what it names. */
  deref(node) {
    let n = node;
    for (let guard = 0; guard < 16 && n && (0, import_yaml.isAlias)(n); guard++) {
      this.aliases ??= aliasTargets(this.doc);
      n = this.aliases.get(n);
    }
    return n ?? null;
  }
  /** A pair's key as written: a scalar's value, an alias's (`*app :`, a key named by an anchor), else the node. */
  keyOf(key) {
    const k = (0, import_yaml.isAlias)(key) ? this.deref(key) : key;
    return (0, import_yaml.isScalar)(k) ? k.value : k;
  }
  /** A map's value for `key`: its own pair first, then the maps its merge keys (`<<`) bring in. */
  get(node, key) {
    const map = this.deref(node);
    if (!map || !(0, import_yaml.isMap)(map)) return null;
    let merged = null;
    for (const pair of map.items) {
      const k = this.keyOf(pair.key);
      if (k === key) return this.deref(pair.value) ?? null;
      if ((k === "<<" || typeof k === "symbol" && k.description === "<<") && merged === null) {
        const from = this.deref(pair.value);
        const sources = from && (0, import_yaml.isSeq)(from) ? from.items : [from];
        for (const s of sources) {
          merged = this.get(s, key);
          if (merged) break;
        }
      }
    }
    return merged;
  }
  /** The keys of a map, its merged ones included. */
  keys(node) {
    const map = this.deref(node);
    if (!map || !(0, import_yaml.isMap)(map)) return [];
    const out = [];
    for (const pair of map.items) {
      const k = this.keyOf(pair.key);
      if (typeof k === "string") out.push(k);
      else if (typeof k === "symbol" && k.description === "<<") {
        const from = this.deref(pair.value);
        for (const s of from && (0, import_yaml.isSeq)(from) ? from.items : [from]) out.push(...this.keys(s));
      }
    }
    return [...new Set(out)];
  }
  items(node) {
    const seq = this.deref(node);
    return seq && (0, import_yaml.isSeq)(seq) ? seq.items.map((i) => this.deref(i)).filter((i) => i !== null) : [];
  }
  /** A scalar's value as text (numbers and booleans as written); null for a map, a list or nothing. */
  str(node) {
    const n = this.deref(node);
    if (!n || !(0, import_yaml.isScalar)(n) || n.value === null) return null;
    return typeof n.value === "string" ? n.value : String(n.source ?? n.value);
  }
  line(node) {
    const n = this.deref(node);
    return n?.range ? this.src.lineAt(n.range[0]) : 1;
  }
  /** The line of `key` itself in a map (where a finding about the key points). */
  keyLine(node, key) {
    const map = this.deref(node);
    if (map && (0, import_yaml.isMap)(map)) {
      for (const pair of map.items) {
        if (this.keyOf(pair.key) === key && pair.key?.range)
          return this.src.lineAt(pair.key.range[0]);
      }
    }
    const v = this.get(node, key);
    return v ? this.line(v) : this.line(node);
  }
  /** For a block scalar (`|`, `>`), the line its text starts on; else the scalar's own line. */
  textLine(node) {
    const n = this.deref(node);
    if (!n || !(0, import_yaml.isScalar)(n) || !n.range) return this.line(n);
    const block = n.type === "BLOCK_LITERAL" || n.type === "BLOCK_FOLDED";
    return block ? this.src.lineAt(n.range[0]) + 1 : this.src.lineAt(n.range[0]);
  }
  /**
   * A command written as a list (one word per item, never split) or as a string (split into words as a shell
   * splits them, which is what compose does with a string `command:`), each word on the line it is written on.
   */
  words(node, expand, opts = {}) {
    const n = this.deref(node);
    if (!n) return [];
    if ((0, import_yaml.isSeq)(n)) {
      return this.items(n).flatMap((item) => {
        const text2 = this.str(item);
        return text2 === null ? [] : [yamlWord(text2, this.textLine(item), expand)];
      });
    }
    const text = this.str(n);
    if (text === null || !n.range) return [];
    const from = n.range[0];
    const raw = this.src.text.slice(from, n.range[1]);
    let cursor = 0;
    const split = opts.hashIsWord ? text.replace(/(^|\s)#/g, "$1\\#") : text;
    return lexWords(split, this.line(n)).map((w) => {
      const probe = w.text.slice(0, 24);
      const at2 = probe ? raw.indexOf(probe, cursor) : -1;
      if (at2 >= 0) cursor = at2 + probe.length;
      return yamlWord(w.text, this.src.lineAt(from + Math.max(0, at2 >= 0 ? at2 : cursor)), expand);
    });
  }
};
function yamlWord(text, line, expand) {
  const resolved = expand(text);
  const dynamic = /\$[({A-Za-z_]/.test(text);
  return { text, line, optional: false, dynamic, ...resolved !== void 0 ? { resolved } : {} };
}
var optionWord = (text, line) => ({
  text,
  line,
  optional: false,
  dynamic: false,
  resolved: text
});
var yamlCommand = (words, from, to, lines) => ({
  words,
  assignments: [],
  line: from,
  endLine: to,
  source: lines.slice(from - 1, to).join("\n"),
  redirects: [],
  pipeTo: null
});

// src/domain/launch/compose.ts
var import_yaml2 = __toESM(require_dist(), 1);
import { posix as posix5 } from "node:path";

// src/domain/launch/compose-extends.ts
import { posix as posix4 } from "node:path";
function extendsRef(y, svc, dir) {
  const ext = y.get(svc, "extends");
  if (!ext) return null;
  const service = y.str(ext) ?? y.str(y.get(ext, "service"));
  const file = y.str(y.get(ext, "file"));
  if (!service) return null;
  return {
    service,
    file: file === null ? null : posix4.normalize(posix4.join(dir, file)),
    line: y.keyLine(svc, "extends")
  };
}
function fromFile(base, file, lines, at2) {
  const tag = (w) => w.file ? w : { ...w, file };
  const moved = (w) => ({ ...w, line: at2 });
  return {
    ...base,
    options: base.options.map(moved),
    image: moved(base.image),
    entrypoint: base.entrypoint?.map(tag) ?? null,
    command: base.command?.map(tag) ?? null,
    restart: base.restart && { ...base.restart, line: at2 },
    gpus: base.gpus && { ...base.gpus, line: at2 },
    startPeriod: base.startPeriod && { ...base.startPeriod, line: at2 },
    line: at2,
    argvFrom: base.argvFrom ?? (base.entrypoint || base.command ? { file, lines } : void 0)
  };
}
function mergeFacets(base, own) {
  const baseOptions = own.options.some((w) => w.text === "--name") ? dropName(base.options) : base.options;
  return {
    options: [...baseOptions, ...own.options],
    image: own.fragment ? base.image : own.image,
    fragment: own.fragment && base.fragment,
    entrypoint: own.entrypoint ?? base.entrypoint,
    command: own.command ?? base.command,
    restart: own.restart ?? base.restart,
    gpus: own.gpus ?? base.gpus,
    startPeriod: own.startPeriod ?? base.startPeriod,
    containerName: own.containerName ?? base.containerName,
    tag: own.fragment ? base.tag : own.tag ?? null,
    line: own.line,
    build: own.fragment ? base.build : own.build,
    mounted: own.mounted ?? base.mounted ?? null,
    // (a service that sets either part of the argv itself has words of both files: each keeps its own)
    ...!own.entrypoint && !own.command && base.argvFrom ? { argvFrom: base.argvFrom } : {}
  };
}
function dropName(options) {
  const i = options.findIndex((w) => w.text === "--name");
  return i < 0 ? options : [...options.slice(0, i), ...options.slice(i + 2)];
}

// src/domain/launch/compose.ts
function interpolate(text, env) {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, name, op, arg, bare) => {
      if (all === "$$") return "$";
      const key = name ?? bare;
      const v = env.get(key);
      const set = v !== void 0 && (v !== "" || !op?.startsWith(":"));
      if (op === ":-" || op === "-") return set ? v : interpolate(arg ?? "", env);
      if (op === ":+" || op === "+") return set ? interpolate(arg ?? "", env) : "";
      return v ?? "";
    }
  );
}
function parseDotEnv(text) {
  const env = /* @__PURE__ */ new Map();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2].trim();
    const q = v[0];
    const close = q === '"' || q === "'" ? v.indexOf(q, 1) : -1;
    if (close > 0) v = v.slice(1, close);
    else v = v.replace(/\s+#.*$/, "");
    env.set(m[1], v);
  }
  return env;
}
function looksLikeCompose(text) {
  return /^services\s*:/m.test(text);
}
function composeName(text, env = /* @__PURE__ */ new Map()) {
  const src = looksLikeCompose(text) ? readYaml(text) : null;
  const doc = src?.docs[0];
  if (!src || !doc) return null;
  const y = new YamlReader(src, doc);
  const v = y.str(y.get(doc.contents, "name"));
  return v === null ? null : interpolate(v, env);
}
function parseCompose(text, env = /* @__PURE__ */ new Map(), extended = /* @__PURE__ */ new Map(), dir = "", builds = /* @__PURE__ */ new Map(), buildEnv) {
  const file = openCompose(text);
  if (!file) return null;
  const lines = text.split("\n");
  const scope = { extended, dir, depth: 0, builds, buildEnv: buildEnv ?? env };
  const all = file.y.keys(file.services).map((name) => ({ name, f: serviceFacets(file, name, env, scope) }));
  return all.flatMap(({ name, f }) => f ? [assemble(name, sharedBuild(f, all), lines, env)] : []);
}
function sharedBuild(f, all) {
  if (f.build || !f.tag) return f;
  const maker = all.find(({ f: g }) => g?.build && g.tag === f.tag)?.f;
  if (!maker) return f;
  return { ...f, build: maker.build, image: { ...f.image, text: maker.image.text, resolved: maker.image.resolved } };
}
function openCompose(text) {
  if (!looksLikeCompose(text)) return null;
  const src = readYaml(text);
  const doc = src?.docs[0];
  if (!src || !doc) return null;
  const y = new YamlReader(src, doc);
  const services = y.get(doc.contents, "services");
  return services ? { y, services } : null;
}
function assemble(name, f, lines, env) {
  const words = [...f.options, f.image, ...interpolatedScript([...f.entrypoint ?? [], ...f.command ?? []], env)];
  const here = words.filter((w) => !w.file).map((w) => w.line);
  const from = Math.min(...here, f.line);
  const to = Math.max(...here);
  const command = yamlCommand(words, from, to, lines);
  const run = readPodmanRun(command, words, "compose");
  if (run.image?.text !== f.image.text) run.image = f.image;
  if (f.build) run.build = f.build;
  if (f.mounted) run.mounted = f.mounted;
  run.workload = {
    form: "compose",
    name,
    restart: f.restart,
    gpus: f.gpus,
    shm: null,
    probes: f.startPeriod ? [{ kind: "healthcheck.start_period", budgetSeconds: seconds(f.startPeriod.value), line: f.startPeriod.line }] : []
  };
  const containerName = f.containerName === null ? null : interpolate(f.containerName, env);
  return { name, run, containerName, ...f.argvFrom ? { argvFrom: f.argvFrom } : {} };
}
function serviceFacets(file, name, env, scope) {
  const svc = file.y.get(file.services, name);
  if (!svc) return null;
  const own = readService(file.y, name, svc, env, scope);
  const ref = scope.depth < 5 ? extendsRef(file.y, svc, scope.dir) : null;
  if (!ref) return own;
  const next = { ...scope, depth: scope.depth + 1 };
  if (ref.file === null) {
    const base2 = ref.service === name ? null : serviceFacets(file, ref.service, env, next);
    return base2 ? mergeFacets(base2, own) : own;
  }
  const text = scope.extended.get(ref.file);
  const other = text === void 0 ? null : openCompose(text);
  const base = other && serviceFacets(other, ref.service, env, { ...next, dir: posix5.dirname(ref.file) });
  return base ? mergeFacets(fromFile(base, ref.file, text.split("\n"), ref.line), own) : own;
}
function extendedFiles(text, read, dir = "") {
  const out = /* @__PURE__ */ new Map();
  let todo = extendsFiles(text, dir);
  while (todo.length && out.size < 10) {
    const next = [];
    for (const path of todo.filter((p) => !out.has(p) && !p.startsWith("../"))) {
      const t = read(path);
      if (t === null) continue;
      out.set(path, t);
      next.push(...extendsFiles(t, posix5.dirname(path)));
    }
    todo = next;
  }
  return out;
}
function extendsFiles(text, dir = "") {
  const file = openCompose(text);
  if (!file) return [];
  return file.y.keys(file.services).flatMap((name) => {
    const svc = file.y.get(file.services, name);
    const ref = svc ? extendsRef(file.y, svc, dir) : null;
    return ref?.file ? [ref.file] : [];
  });
}
function buildFiles(text, read, dir = "", buildEnv = /* @__PURE__ */ new Map()) {
  const file = openCompose(text);
  const out = /* @__PURE__ */ new Map();
  if (!file) return out;
  const expand = (t) => interpolate(t, buildEnv);
  for (const name of file.y.keys(file.services)) {
    const svc = file.y.get(file.services, name);
    if (!svc) continue;
    const command = file.y.get(svc, "command");
    const words = command ? composeWords(file.y, command, (t) => t) : null;
    for (const [p, t] of buildReads(file.y, svc, dir, read, words, expand)) out.set(p, t);
    const entry = file.y.get(svc, "entrypoint");
    const mounted = mountedScriptPath(
      file.y,
      svc,
      dir,
      entry ? composeWords(file.y, entry, (t) => t) : null,
      words,
      expand
    );
    const text2 = mounted ? read(mounted.path) : null;
    if (mounted && text2 !== null) out.set(mounted.path, text2);
  }
  return out;
}
function readService(y, name, svc, env, scope) {
  const expand = (t) => interpolate(t, env);
  const options = [];
  const opt = (option, value, line) => {
    options.push(optionWord(option, line), { ...optionWord(value, line), resolved: expand(value) });
  };
  const scalar = (key, option) => {
    const v = y.str(y.get(svc, key));
    if (v !== null) opt(option, v, y.keyLine(svc, key));
  };
  const containerName = y.str(y.get(svc, "container_name"));
  opt("--name", containerName ?? name, y.keyLine(svc, "container_name"));
  scalar("ipc", "--ipc");
  scalar("shm_size", "--shm-size");
  scalar("restart", "--restart");
  scalar("network_mode", "--network");
  scalar("runtime", "--runtime");
  scalar("user", "--user");
  scalar("gpus", "--gpus");
  if (y.str(y.get(svc, "privileged")) === "true")
    options.push(optionWord("--privileged", y.keyLine(svc, "privileged")));
  if (y.str(y.get(svc, "tty")) === "true") options.push(optionWord("--tty", y.keyLine(svc, "tty")));
  if (y.str(y.get(svc, "stdin_open")) === "true")
    options.push(optionWord("--interactive", y.keyLine(svc, "stdin_open")));
  for (const d of y.items(y.get(svc, "devices"))) {
    const v = y.str(d) ?? y.str(y.get(d, "source"));
    if (v) opt("--device", v, y.line(d));
  }
  const ulimits = y.get(svc, "ulimits");
  for (const key of y.keys(ulimits)) {
    const u = y.get(ulimits, key);
    const single = y.str(u);
    const soft = single ?? y.str(y.get(u, "soft")) ?? "";
    const hard = single ?? y.str(y.get(u, "hard")) ?? soft;
    opt("--ulimit", `${key}=${soft}:${hard}`, y.keyLine(ulimits, key));
  }
  for (const v of y.items(y.get(svc, "volumes"))) {
    const short2 = y.str(v);
    if (short2 !== null) opt("--volume", short2, y.line(v));
    else {
      const source = y.str(y.get(v, "source")) ?? "";
      const target = y.str(y.get(v, "target")) ?? "";
      const ro = y.str(y.get(v, "read_only")) === "true" ? ":ro" : "";
      if (y.str(y.get(v, "type")) === "tmpfs") opt("--tmpfs", target, y.line(v));
      else opt("--volume", `${source}:${target}${ro}`, y.line(v));
    }
  }
  for (const f of [y.get(svc, "env_file")].flatMap((n) => y.str(n) !== null ? [n] : y.items(n))) {
    const path = y.str(f) ?? y.str(y.get(f, "path"));
    if (path) opt("--env-file", path, y.line(f));
  }
  const environment = y.get(svc, "environment");
  for (const item of y.items(environment)) {
    const t = y.str(item);
    if (t) opt("--env", t, y.line(item));
  }
  for (const key of y.keys(environment)) {
    const v = y.str(y.get(environment, key));
    opt("--env", v === null ? key : `${key}=${v}`, y.keyLine(environment, key));
  }
  for (const p of y.items(y.get(svc, "ports"))) {
    const t = y.str(p) ?? `${y.str(y.get(p, "published")) ?? ""}:${y.str(y.get(p, "target")) ?? ""}`;
    opt("--publish", t, y.line(p));
  }
  const gpuAsk = gpuRequest(y, svc);
  if (gpuAsk && !y.get(svc, "gpus")) opt("--gpus", gpuAsk.value, gpuAsk.line);
  const health = y.get(svc, "healthcheck");
  const test = y.get(health, "test");
  if (test)
    opt(
      "--health-cmd",
      y.items(test).map((t) => y.str(t) ?? "").join(" ") || (y.str(test) ?? ""),
      y.line(test)
    );
  const start = y.str(y.get(health, "start_period"));
  if (start !== null) opt("--health-start-period", start, y.keyLine(health, "start_period"));
  const image = y.get(svc, "image");
  const entrypoint = y.get(svc, "entrypoint");
  const command = y.get(svc, "command");
  const build = y.get(svc, "build");
  const fragment = !image && !build;
  const commandWords2 = command ? composeWords(y, command, expand) : null;
  const buildEnv = scope.buildEnv ?? env;
  const stage = !image && build ? llamaCppStage(y, svc, scope.dir, expand) : null;
  const built = scope.builds && !stage ? builtImage(y, svc, scope.dir, scope.builds, commandWords2, (t) => interpolate(t, buildEnv)) : null;
  const builtBase = built?.image.base && !built.image.entrypoint && imageEngine(built.image.base.text) ? built.image.base : null;
  const base = builtBase ? { value: builtBase.text, line: y.keyLine(svc, "build") } : image ? null : baseImageArg(y, build);
  const imageText = base?.value ?? y.str(image) ?? (stage ? `ghcr.io/ggml-org/llama.cpp:${stage}` : null) ?? (fragment ? "(no image: completed by another compose file)" : `${name} (built from this directory)`);
  const imageLine = base?.line ?? (image ? y.line(image) : y.line(svc));
  const imageResolved = expand(imageText);
  const unsetOnly = imageResolved === "" && /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(imageText.trim());
  const entryWords = entrypoint ? composeWords(y, entrypoint, expand) : null;
  const mount = scope.builds ? mountedScriptPath(y, svc, scope.dir, entryWords, commandWords2, expand) : null;
  const mountText = mount ? scope.builds?.get(mount.path) : void 0;
  const restartV = y.str(y.get(svc, "restart"));
  return {
    options,
    image: { ...optionWord(imageText, imageLine), ...unsetOnly ? {} : { resolved: imageResolved } },
    fragment,
    entrypoint: entryWords,
    command: commandWords2,
    restart: restartV === null ? null : { value: restartV, line: y.keyLine(svc, "restart") },
    gpus: y.get(svc, "gpus") ? { value: y.str(y.get(svc, "gpus")) ?? "", line: y.keyLine(svc, "gpus") } : gpuAsk,
    startPeriod: start === null ? null : { value: start, line: y.keyLine(health, "start_period") },
    containerName,
    tag: y.str(image),
    line: y.line(svc),
    build: built,
    mounted: mount && mountText !== void 0 ? { ...mount, text: mountText } : null
  };
}
function interpolatedScript(argv, env) {
  const shell = /^(?:\S*\/)?(?:ba|da|a)?sh$/.test(argv[0]?.text ?? "");
  const c = shell ? argv.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.text)) : -1;
  const script = c > 0 ? argv[c + 1] : void 0;
  if (!script || !script.text.includes("$")) return argv;
  const text = script.text.replace(
    /\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*:?\+(?:[^{}]|\{[^{}]*\})*\}/g,
    (m) => m === "$$" ? "$" : interpolate(m, env)
  );
  return argv.map((w) => w === script ? { ...w, text } : w);
}
function baseImageArg(y, build) {
  const args = y.get(build, "args");
  const pairs = [
    ...y.items(args).map((n) => ({ text: y.str(n) ?? "", line: y.line(n) })),
    ...y.keys(args).map((k) => ({ text: `${k}=${y.str(y.get(args, k)) ?? ""}`, line: y.keyLine(args, k) }))
  ];
  for (const p of pairs) {
    const m = /^[A-Za-z_]*IMAGE[A-Za-z_]*=(\S*(?:vllm|sglang|llama[._-]?cpp)\S*)$/i.exec(p.text.trim());
    if (m && /[/:]/.test(m[1])) return { value: m[1], line: p.line };
  }
  return null;
}
function gpuRequest(y, svc) {
  const devices = y.get(y.get(y.get(y.get(svc, "deploy"), "resources"), "reservations"), "devices");
  for (const d of y.items(devices)) {
    const caps = y.items(y.get(d, "capabilities")).map((c) => y.str(c));
    const driver = y.str(y.get(d, "driver"));
    if (!caps.includes("gpu") && driver !== "nvidia") continue;
    const ids = y.items(y.get(d, "device_ids")).map((i) => y.str(i));
    const count = y.str(y.get(d, "count"));
    return { value: ids.length ? `"device=${ids.join(",")}"` : count ?? "all", line: y.line(d) };
  }
  const rt = y.str(y.get(svc, "runtime"));
  return rt === "nvidia" ? { value: "all", line: y.keyLine(svc, "runtime") } : null;
}
function seconds(text) {
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|us|ns|h|m|s)/g)) {
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3600 : m[2] === "m" ? n * 60 : m[2] === "s" ? n : 0;
  }
  return /^\d+$/.test(text.trim()) ? Number(text) : total;
}
function composeWords(y, node, expand) {
  const words = y.words(node, expand, { hashIsWord: true });
  if ((0, import_yaml2.isSeq)(y.deref(node))) return words;
  const unescape = (t) => t.replace(/\\([ \t])/g, "$1");
  return words.flatMap((w) => {
    const pieces = /^\$\{[^{}]*\}$/.test(w.text) ? w.resolved?.trim().split(/\s+/) ?? [] : [];
    if (pieces.length > 1) return pieces.map((p) => ({ ...w, text: p, resolved: p, dynamic: false }));
    return [{ ...w, text: unescape(w.text), ...w.resolved !== void 0 ? { resolved: unescape(w.resolved) } : {} }];
  });
}

// src/stages/compose-inputs.ts
var EXAMPLES = [".env.example", ".env.sample"];
async function composeInputs(read, file, text) {
  const dir = posix6.dirname(file);
  const envText = await read(posix6.join(dir, ".env"));
  const env = envText === null ? /* @__PURE__ */ new Map() : parseDotEnv(envText);
  if (text === null) return { env, extended: /* @__PURE__ */ new Map(), dir: at(dir), builds: /* @__PURE__ */ new Map(), buildEnv: env };
  let example = null;
  for (const name of envText === null && /^\s+build:/m.test(text) ? EXAMPLES : []) {
    example = await read(posix6.join(dir, name));
    if (example !== null) break;
  }
  const buildEnv = example === null ? env : parseDotEnv(example);
  const cache = /* @__PURE__ */ new Map();
  for (; ; ) {
    const missing = /* @__PURE__ */ new Set();
    const get = (p) => cache.has(p) ? cache.get(p) : (missing.add(p), null);
    const extended = extendedFiles(text, get, at(dir));
    const builds = buildFiles(text, get, at(dir), buildEnv);
    if (!missing.size) return { env, extended, dir: at(dir), builds, buildEnv };
    for (const p of missing) cache.set(p, await read(p));
  }
}
function composeInputsSync(read, file, text) {
  const dir = posix6.dirname(file);
  const envText = read(posix6.join(dir, ".env"));
  const env = envText === null ? /* @__PURE__ */ new Map() : parseDotEnv(envText);
  const example = envText === null && /^\s+build:/m.test(text) ? EXAMPLES.map((n) => read(posix6.join(dir, n))).find((t) => t !== null) ?? null : null;
  const buildEnv = example === null ? env : parseDotEnv(example);
  return {
    env,
    extended: extendedFiles(text, read, at(dir)),
    dir: at(dir),
    builds: buildFiles(text, read, at(dir), buildEnv),
    buildEnv
  };
}
var at = (dir) => dir === "." ? "" : dir;

// src/domain/launch/compose-target.ts
import { join as join2 } from "node:path/posix";

// src/domain/launch/kube.ts
var import_yaml4 = __toESM(require_dist(), 1);

// src/domain/launch/kserve.ts
var import_yaml3 = __toESM(require_dist(), 1);
function predictorModel(y, doc) {
  if (y.str(y.get(doc, "kind")) !== "InferenceService") return null;
  const predictor = y.get(y.get(doc, "spec"), "predictor");
  const model = y.get(predictor, "model");
  if (!predictor || !model || !(0, import_yaml3.isMap)(model)) return null;
  const runtime = y.str(y.get(model, "runtime"));
  const format = y.str(y.get(y.get(model, "modelFormat"), "name"));
  const names = /vllm|sglang|llama/i.test(`${runtime ?? ""} ${format ?? ""}`);
  if (!y.get(model, "args") && !y.get(model, "command") && !names) return null;
  return { name: y.str(y.get(y.get(doc, "metadata"), "name")) ?? "unnamed", runtime, format, node: model, predictor };
}
function appendedArgs(model, expand) {
  return model.y.words(model.y.get(model.m.node, "args"), expand);
}

// src/domain/launch/configmap-script.ts
function configMapsOf(readers) {
  const out = /* @__PURE__ */ new Map();
  for (const y of readers) {
    const doc = y.doc.contents;
    if (y.str(y.get(doc, "kind")) !== "ConfigMap") continue;
    const name = y.str(y.get(y.get(doc, "metadata"), "name"));
    if (name) out.set(name, { y, data: y.get(doc, "data") });
  }
  return out;
}
var SHELL3 = /^(?:\/(?:usr\/)?bin\/)?(?:ba|da)?sh$/;
function withMountedScript(y, pod, c, argv, maps) {
  const at2 = argv[0] && SHELL3.test(argv[0].text) ? 1 : 0;
  const path = argv[at2];
  if (!path?.text.startsWith("/") || maps.size === 0) return argv;
  const script = mountedScript2(y, pod, c, path.text, maps);
  if (!script) return argv;
  return [optionWord("sh", path.line), optionWord("-c", path.line), script, ...argv.slice(at2)];
}
function mountedScript2(y, pod, c, path, maps) {
  for (const m of y.items(y.get(c, "volumeMounts"))) {
    const dir = (y.str(y.get(m, "mountPath")) ?? "").replace(/\/+$/, "");
    const sub = y.str(y.get(m, "subPath"));
    const file = sub !== null ? path === dir ? sub : null : path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : null;
    if (!file) continue;
    const vol = y.items(y.get(pod, "volumes")).find((v) => y.str(y.get(v, "name")) === y.str(y.get(m, "name")));
    const cm = y.get(vol, "configMap");
    const found = maps.get(y.str(y.get(cm, "name")) ?? "");
    if (!found) continue;
    const item = y.items(y.get(cm, "items")).find((i) => y.str(y.get(i, "path")) === file);
    const key = sub !== null ? file : item ? y.str(y.get(item, "key")) ?? file : file;
    const value = found.y.get(found.data, key);
    const text = found.y.str(value);
    if (text === null) continue;
    return yamlWord(text, found.y.textLine(value), () => void 0);
  }
  return null;
}

// src/domain/launch/probe-budget.ts
function probeBudget(y, probe) {
  const num = (k, d) => Number(y.str(y.get(probe, k)) ?? d);
  return num("initialDelaySeconds", 0) + num("failureThreshold", 3) * num("periodSeconds", 10);
}

// src/domain/launch/app-template.ts
function appTemplateContainers(y, release, doc, lines) {
  if (y.str(y.get(doc, "kind")) !== "HelmRelease") return [];
  const controllers = y.get(y.get(y.get(doc, "spec"), "values"), "controllers");
  const out = [];
  for (const ctl of y.keys(controllers)) {
    const containers = y.get(y.get(controllers, ctl), "containers");
    for (const name of y.keys(containers)) {
      const c = y.get(containers, name);
      const own = ctl === release || ctl === "main";
      if (c && y.get(y.get(c, "image"), "repository"))
        out.push(container(y, `HelmRelease/${release}/${own ? "" : `${ctl}/`}${name}`, c, lines));
    }
  }
  return out;
}
function container(y, full, c, lines) {
  const at2 = y.line(c);
  const words = [optionWord("--name", at2), optionWord(full.split("/").at(-1), at2)];
  const env = y.get(c, "env");
  for (const k of y.keys(env)) {
    const v = y.get(env, k);
    const value = y.str(v) ?? y.str(y.get(v, "value"));
    const line = y.keyLine(env, k);
    words.push(optionWord("--env", line), optionWord(value === null ? k : `${k}=${value}`, line));
  }
  for (const e of y.items(env)) {
    const n = y.str(y.get(e, "name"));
    const v = y.str(y.get(e, "value"));
    if (n) words.push(optionWord("--env", y.line(e)), optionWord(v === null ? n : `${n}=${v}`, y.line(e)));
  }
  const limits = y.get(y.get(c, "resources"), "limits");
  const gpuKey = y.keys(limits).find((k) => /(^|\/)gpu$/.test(k));
  const gpus = gpuKey ? { value: y.str(y.get(limits, gpuKey)) ?? "", line: y.keyLine(limits, gpuKey) } : null;
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  const image = y.get(c, "image");
  const repo = y.str(y.get(image, "repository")) ?? "";
  const tag = y.str(y.get(image, "tag"));
  words.push(optionWord(tag ? `${repo}:${tag}` : repo, y.line(image)));
  const literal = (t) => t;
  for (const key of ["command", "args"]) {
    const node = y.get(c, key);
    const one = y.str(node);
    if (one !== null) words.push(yamlWord(one, y.textLine(node), literal));
    else words.push(...y.words(node, literal));
  }
  const to = Math.max(...words.map((w) => w.line));
  const run = readPodmanRun(yamlCommand(words, at2, to, lines), words, "kubernetes");
  run.workload = { form: "kubernetes", name: full, restart: null, gpus, shm: null, probes: customProbes(y, c) };
  return { name: full, run };
}
var PROBES = { startup: "startupProbe", readiness: "readinessProbe", liveness: "livenessProbe" };
function customProbes(y, c) {
  const probes2 = y.get(c, "probes");
  const out = [];
  for (const [key, kind] of Object.entries(PROBES)) {
    const p = y.get(probes2, key);
    if (y.str(y.get(p, "enabled")) !== "true") continue;
    const line = y.keyLine(probes2, key);
    if (y.str(y.get(p, "custom")) === "true") out.push({ kind, budgetSeconds: probeBudget(y, y.get(p, "spec")), line });
    else if (kind === "startupProbe") out.push({ kind, budgetSeconds: Number.POSITIVE_INFINITY, line });
  }
  return out;
}

// src/domain/launch/production-stack.ts
var VALUED = [
  ["maxModelLen", "--max-model-len"],
  ["dtype", "--dtype"],
  ["tensorParallelSize", "--tensor-parallel-size"],
  ["maxNumSeqs", "--max-num-seqs"],
  ["gpuMemoryUtilization", "--gpu_memory_utilization"],
  ["maxLoras", "--max_loras"]
];
function productionStackContainers(y, release, doc, lines) {
  if (y.str(y.get(doc, "kind")) !== "HelmRelease") return [];
  const engine = y.get(y.get(y.get(doc, "spec"), "values"), "servingEngineSpec");
  const specs = y.items(y.get(engine, "modelSpec"));
  if (!specs.length || y.str(y.get(engine, "enableEngine")) === "false") return [];
  const probes2 = ["startupProbe", "livenessProbe"].flatMap((kind) => {
    const p = y.get(engine, kind);
    return p ? [{ kind, budgetSeconds: probeBudget(y, p), line: y.keyLine(engine, kind) }] : [];
  });
  return specs.filter((s) => y.str(y.get(s, "enabled")) !== "false" && y.str(y.get(s, "modelURL"))).map((s) => container2(y, `HelmRelease/${release}/${y.str(y.get(s, "name")) ?? "model"}/vllm`, s, lines, probes2));
}
function container2(y, full, s, lines, probes2) {
  const at2 = y.line(s);
  const word2 = (text, line) => optionWord(text, line);
  const key = (k) => y.keyLine(s, k);
  const words = [word2("--name", at2), word2("vllm", at2)];
  const limits = y.get(y.get(s, "resources"), "limits");
  const gpuKey = y.keys(limits).find((k) => /(^|\/)gpu$/.test(k));
  if (gpuKey) words.push(word2("--gpus", y.keyLine(limits, gpuKey)), word2(y.str(y.get(limits, gpuKey)) ?? "", at2));
  words.push(word2(`${y.str(y.get(s, "repository")) ?? ""}:${y.str(y.get(s, "tag")) ?? "latest"}`, key("repository")));
  words.push(word2("vllm", at2), word2("serve", at2), word2(y.str(y.get(s, "modelURL")), key("modelURL")));
  words.push(word2("--host", at2), word2("0.0.0.0", at2), word2("--port", at2), word2("8000", at2));
  if (y.str(y.get(s, "enableLoRA")) === "true") words.push(word2("--enable-lora", key("enableLoRA")));
  if (y.str(y.get(s, "enableTool")) === "true") words.push(word2("--enable-auto-tool-choice", key("enableTool")));
  const parser = y.str(y.get(s, "toolCallParser"));
  if (parser) words.push(word2("--tool-call-parser", key("toolCallParser")), word2(parser, key("toolCallParser")));
  const config = y.get(s, "vllmConfig");
  if (config) {
    const cfg = (k) => y.keyLine(config, k);
    const flag = (k) => y.str(y.get(config, k));
    if (y.keys(config).includes("enableChunkedPrefill"))
      words.push(
        word2(
          flag("enableChunkedPrefill") === "true" ? "--enable-chunked-prefill" : "--no-enable-chunked-prefill",
          cfg("enableChunkedPrefill")
        )
      );
    const prefix = y.keys(config).includes("enablePrefixCaching") ? cfg("enablePrefixCaching") : key("vllmConfig");
    words.push(
      word2(flag("enablePrefixCaching") === "true" ? "--enable-prefix-caching" : "--no-enable-prefix-caching", prefix)
    );
    for (const [k, name] of VALUED)
      if (y.keys(config).includes(k)) words.push(word2(name, cfg(k)), word2(flag(k) ?? "", cfg(k)));
    for (const item of y.items(y.get(config, "extraArgs")))
      if (y.str(item) !== null) words.push(word2(y.str(item), y.line(item)));
  }
  const template = y.str(y.get(s, "chatTemplate"));
  if (template)
    words.push(word2("--chat-template", key("chatTemplate")), word2(`/templates/${template}`, key("chatTemplate")));
  const to = Math.max(...words.map((w) => w.line));
  const run = readPodmanRun(yamlCommand(words, at2, to, lines), words, "kubernetes");
  run.workload = { form: "kubernetes", name: full, restart: null, gpus: null, shm: null, probes: probes2 };
  return { name: full, run };
}

// src/domain/launch/kube.ts
function looksLikeKube(text) {
  return /^apiVersion\s*:/m.test(text) && /^kind\s*:/m.test(text);
}
function parseKube(text) {
  if (!looksLikeKube(text)) return null;
  const src = readYaml(text);
  if (!src) return null;
  const lines = text.split("\n");
  const out = [];
  const readers = src.docs.map((doc) => new YamlReader(src, doc));
  const models = readers.flatMap((y) => {
    const m = predictorModel(y, y.doc.contents);
    return m ? [{ y, m }] : [];
  });
  const runtimes = /* @__PURE__ */ new Set();
  const maps = configMapsOf(readers);
  for (const y of readers) {
    const doc = y.doc;
    const kind = y.str(y.get(doc.contents, "kind")) ?? "Object";
    const name = y.str(y.get(y.get(doc.contents, "metadata"), "name")) ?? "unnamed";
    const joined = /ServingRuntime$/.test(kind) && models.some((x) => x.m.runtime === name);
    if (joined) runtimes.add(name);
    const users = models.filter((x) => x.m.runtime === name);
    walk(y, doc.contents, (pod, containers) => {
      for (const c of containers) {
        if (!joined || y.str(y.get(c, "name")) !== "kserve-container") {
          out.push(readContainer(y, `${kind}/${name}`, pod, c, lines, void 0, void 0, maps));
          continue;
        }
        for (const u of users) {
          const extra = (expand) => appendedArgs(u, expand);
          const as = users.length > 1 ? `InferenceService/${u.m.name}` : `${kind}/${name}`;
          out.push(readContainer(y, as, pod, c, lines, extra, void 0, maps));
        }
      }
    });
    const api = y.str(y.get(doc.contents, "apiVersion")) ?? "";
    if (kind === "Model" && api.startsWith("kubeai.org/")) out.push(...kubeaiModel(y, name, doc.contents, lines));
    if (kind === "HelmRelease")
      out.push(
        ...appTemplateContainers(y, name, doc.contents, lines),
        ...productionStackContainers(y, name, doc.contents, lines)
      );
  }
  for (const { y, m } of models) {
    if (m.runtime && runtimes.has(m.runtime)) continue;
    const format = m.format && m.runtime ? ` for ${m.format}` : "";
    const image = `KServe runtime ${m.runtime ?? m.format ?? "unknown"}${format}`;
    out.push(readContainer(y, `InferenceService/${m.name}`, m.predictor, m.node, lines, void 0, image));
  }
  return out;
}
function walk(y, node, visit2, depth = 0) {
  const n = y.deref(node);
  if (!n || depth > 24) return;
  if ((0, import_yaml4.isMap)(n)) {
    const init = y.get(n, "initContainers");
    const sidecars = (0, import_yaml4.isSeq)(init) ? y.items(init).filter((c) => y.str(y.get(c, "restartPolicy")) === "Always") : [];
    const main = (0, import_yaml4.isSeq)(y.get(n, "containers")) ? y.items(y.get(n, "containers")) : [];
    if (main.length || sidecars.length) visit2(n, [...sidecars, ...main]);
    const runner = y.deref(y.get(n, "runner"));
    if ((0, import_yaml4.isMap)(runner) && (y.get(runner, "image") || y.get(runner, "command"))) visit2(n, [runner]);
    for (const k of y.keys(n)) if (k !== "containers" && k !== "runner") walk(y, y.get(n, k), visit2, depth + 1);
  } else if ((0, import_yaml4.isSeq)(n)) for (const i of y.items(n)) walk(y, i, visit2, depth + 1);
}
function kubeExpand(text, env) {
  let unknown = false;
  const out = text.replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name) => {
    if (all === "$$(") return "$(";
    const v = env.get(name);
    if (v === void 0) unknown = true;
    return v ?? all;
  });
  return unknown ? void 0 : out;
}
var CONDITIONAL = /\{\{-?\s*(?:if|with|range)\b[^}]*\}\}(?:(?!\{\{-?\s*(?:if|with|range|end)\b)[\s\S])*?\{\{-?\s*end\s*-?\}\}/g;
function blankTemplateConditionals(text) {
  let out = text;
  for (let prev = ""; prev !== out; ) {
    prev = out;
    out = out.replace(CONDITIONAL, (m) => m.replace(/[^\n]/g, " "));
  }
  return out;
}
function readContainer(y, workload, pod, c, lines, appended, imageFor, maps) {
  const cname = y.str(y.get(c, "name")) ?? (imageFor ? "kserve-container" : "container");
  const env = /* @__PURE__ */ new Map();
  const words = [optionWord("--name", y.line(c)), optionWord(cname, y.line(c))];
  for (const e of y.items(y.get(c, "env"))) {
    const n = y.str(y.get(e, "name"));
    const v = y.str(y.get(e, "value"));
    if (!n) continue;
    if (v !== null) env.set(n, kubeExpand(v, env) ?? v);
    words.push(optionWord("--env", y.line(e)), optionWord(v === null ? n : `${n}=${v}`, y.line(e)));
  }
  const limits = y.get(y.get(c, "resources"), "limits");
  const requests = y.get(y.get(c, "resources"), "requests");
  let gpus = null;
  for (const res of [limits, requests]) {
    const key = y.keys(res).find((k) => /(^|\/)gpu$/.test(k));
    if (key && !gpus) gpus = { value: y.str(y.get(res, key)) ?? "", line: y.keyLine(res, key) };
  }
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  if (y.str(y.get(c, "tty")) === "true") words.push(optionWord("--tty", y.keyLine(c, "tty")));
  const shm = shmMount(y, pod, c);
  for (const m of y.items(y.get(c, "volumeMounts"))) {
    const path = y.str(y.get(m, "mountPath")) ?? "";
    const vol = y.str(y.get(m, "name")) ?? "";
    const ro = y.str(y.get(m, "readOnly")) === "true" ? ":ro" : "";
    words.push(optionWord("--volume", y.line(m)), optionWord(`${vol}:${path}${ro}`, y.line(m)));
  }
  const image = y.get(c, "image");
  const imageText = y.str(image) ?? imageFor ?? `${cname} (the serving runtime's image)`;
  const expand = (t) => kubeExpand(t, env);
  const entrypoint = y.words(y.get(c, "command"), expand);
  if (entrypoint[0] && /^-/.test(entrypoint[0].text))
    words.push(optionWord("--entrypoint", entrypoint[0].line), optionWord(entrypoint[0].text, entrypoint[0].line));
  words.push(optionWord(imageText, image ? y.line(image) : y.line(c)));
  const argv = [...entrypoint, ...y.words(y.get(c, "args"), expand)];
  words.push(...maps ? withMountedScript(y, pod, c, argv, maps) : argv);
  if (appended) words.push(...appended(expand));
  for (const w of words) if (w.resolved !== void 0 && w.text.includes("$(")) w.text = w.resolved;
  for (const w of words) if (w.text.includes("{{")) w.text = blankTemplateConditionals(w.text);
  const from = y.line(c);
  const to = Math.max(...words.map((w) => w.line));
  const command = yamlCommand(words, from, to, lines);
  const rp = y.get(c, "restartPolicy") ?? y.get(pod, "restartPolicy");
  const run = readPodmanRun(command, words, "kubernetes");
  const name = `${workload}/${cname}`;
  run.workload = {
    form: "kubernetes",
    name,
    restart: rp ? { value: y.str(rp) ?? "", line: y.line(rp) } : null,
    gpus,
    shm,
    probes: probes(y, c)
  };
  return { name, run };
}
function kubeaiModel(y, name, model, lines) {
  const spec = y.get(model, "spec");
  const engine = y.get(spec, "engine");
  if (!engine || (y.str(engine) ?? "").toUpperCase() !== "VLLM") return [];
  const at2 = y.line(engine);
  const words = [optionWord("--name", at2), optionWord(name, at2)];
  const env = y.get(spec, "env");
  for (const k of y.keys(env))
    words.push(
      optionWord("--env", y.keyLine(env, k)),
      optionWord(`${k}=${y.str(y.get(env, k)) ?? ""}`, y.keyLine(env, k))
    );
  const profile = y.get(spec, "resourceProfile");
  const count = /:(\d+)$/.exec(y.str(profile) ?? "")?.[1];
  const gpus = count ? { value: count, line: y.line(profile) } : null;
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  words.push(optionWord(`${name} (the vLLM image KubeAI's controller picks)`, at2));
  for (const t of ["python3", "-m", "vllm.entrypoints.openai.api_server"]) words.push(optionWord(t, at2));
  words.push(...y.words(y.get(spec, "args"), (t) => t));
  const to = Math.max(...words.map((w) => w.line));
  const command = yamlCommand(words, at2, to, lines);
  const run = readPodmanRun(command, words, "kubernetes");
  const full = `Model/${name}/${name}`;
  run.workload = {
    form: "kubernetes",
    name: full,
    restart: null,
    gpus,
    shm: { line: at2, sizeLimit: null },
    probes: [
      { kind: "startupProbe", budgetSeconds: 5400 * 2, line: at2 },
      { kind: "readinessProbe", budgetSeconds: 3 * 10, line: at2 },
      { kind: "livenessProbe", budgetSeconds: 3 * 30, line: at2 }
    ]
  };
  return [{ name: full, run }];
}
function shmMount(y, pod, c) {
  const mount = y.items(y.get(c, "volumeMounts")).find((m) => y.str(y.get(m, "mountPath")) === "/dev/shm");
  if (!mount) return null;
  const vol = y.items(y.get(pod, "volumes")).find((v) => y.str(y.get(v, "name")) === y.str(y.get(mount, "name")));
  return { line: y.line(mount), sizeLimit: y.str(y.get(y.get(vol, "emptyDir"), "sizeLimit")) };
}
function probes(y, c) {
  const out = [];
  for (const kind of ["startupProbe", "readinessProbe", "livenessProbe"]) {
    const p = y.get(c, kind);
    if (!p) continue;
    out.push({ kind, budgetSeconds: probeBudget(y, p), line: y.keyLine(c, kind) });
  }
  return out;
}

// src/domain/launch/engine-program.ts
var PROBE = /^\$\((?:command\s+-v|which)\s+["']?([\w.+-]+)["']?\)$/;
var FINDER = /^\$\((?:find|locate|resolve|get|which)_(llama[_-]server|vllm|sglang)(?:_(?:bin|binary|path|exe))?\)$/i;
var FOUND = /^\$\(find\s[^)]*?-i?name\s+["']?(llama-server|vllm)(?:\.exe)?["']?(?=[\s)|])/;
function probedProgram(value) {
  const finder = FINDER.exec(value)?.[1];
  return PROBE.exec(value)?.[1] ?? FOUND.exec(value)?.[1] ?? (finder ? finder.toLowerCase().replace("_", "-") : void 0);
}
var CALL = /^\$\(\s*([A-Za-z_][\w-]*)(?:\s[^)]*)?\)$/;
var ENGINE_PROGRAMS = /* @__PURE__ */ new Set(["llama-server", "vllm", "sglang"]);
function computedProgram(value, script) {
  const name = CALL.exec(value)?.[1];
  const body = name ? functionText(script.split("\n"), name) : null;
  if (body === null) return void 0;
  const code = body.replace(/^\s*#.*$/gm, "");
  const named = /* @__PURE__ */ new Set();
  for (const m of code.matchAll(/\/(llama-server)(?=$|[\s"';)|])/gm)) named.add(m[1]);
  for (const m of code.matchAll(/\b(?:command\s+-v|which)\s+["']?([\w.+-]+)/g)) named.add(m[1]);
  for (const m of code.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
    const bin = namedBinary(m[1]);
    if (bin) named.add(bin);
  }
  const [only] = named;
  return named.size === 1 && ENGINE_PROGRAMS.has(only) ? only : void 0;
}
function namedBinary(name) {
  const m = ENGINE_BIN_NAME.exec(name);
  if (!m) return void 0;
  const engine = m[1].toUpperCase();
  return engine === "VLLM" ? "vllm" : engine === "SGLANG" ? "sglang" : "llama-server";
}

// src/domain/launch/place.ts
function placeFlags(flags, lines, lastLine = Infinity) {
  let cursor = 0;
  for (const f of flags) {
    if (f.file) continue;
    const from = Math.max(cursor, f.line);
    const name = f.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const word2 = new RegExp(`(?:(?<![\\w-])|(?<=\\$\\{\\w+:?-))${name}(?![\\w-])`);
    for (let n = from; n <= Math.min(lines.length, from + 40, lastLine); n++) {
      if (word2.test(lines[n - 1] ?? "")) {
        f.line = n;
        break;
      }
    }
    cursor = f.line;
  }
}

// src/domain/launch/built-engine.ts
var OTHER_PROGRAM = /^(jupyter(-lab|-notebook)?|uvicorn|gunicorn|hypercorn|streamlit|gradio|flask|fastapi|node|npm|npx|yarn|pnpm|bun|deno|nginx|httpd|caddy|java|ollama|text-generation-launcher|tritonserver|llama-swap|sleep|tail|cat|true|(ba|da|z)?sh)$/;
var PYTHON3 = /^python[0-9.]*$/;
var SHELLISH = /^(ba|da|z)?sh$/;
var RUNS_ENGINE = /^(llama-server(\.exe)?|server|vllm|sglang|python[0-9.]*|uv|conda|(ba|da|z)?sh|tini|dumb-init|env|exec|nohup|.*\.(sh|py))$/;
function builtEngine(run, h) {
  const b = run.build;
  if (!b || run.options.some((o) => o.name === "--entrypoint")) return void 0;
  const { image } = b;
  const entry = image.entrypoint;
  if (!entry && image.base && imageEngine(image.base.text)) return void 0;
  const command = run.engineArgs;
  const words = inShell([...entry ?? [], ...command.length ? command : image.cmd ?? []], image.path);
  if (!words.length) return void 0;
  const what = `the image's ${entry ? "ENTRYPOINT" : "CMD"} (${image.path})`;
  const found = directEngine(words, h);
  if (found) return ownArgs(found, image.path, what);
  const script = b.script;
  if (script && b.scriptEngine) {
    const handed = b.scriptEngine.passesArgs && entry ? command : [];
    return { kind: b.scriptEngine.kind, args: [...handed], builtBy: `${script.path}, ${what}` };
  }
  if (script) {
    if (entry && /\$\{?[@*]/.test(script.text)) {
      const inner = directEngine(command.length ? command : image.cmd ?? [], h);
      return inner ? ownArgs(inner, image.path, what) : void 0;
    }
    if (/\.py$/.test(script.path)) return null;
    return /\b(vllm|sglang|llama-server)\b/.test(script.text) ? void 0 : null;
  }
  const program0 = entry?.[0] && entry[0].file === image.path ? basename(entry[0].text) : null;
  if (program0 && OTHER_PROGRAM.test(program0) && !SHELLISH.test(program0)) return null;
  if (program0 && !RUNS_ENGINE.test(program0) && !(image.base && imageEngine(image.base.text))) return null;
  if (!words.every((w) => w.file === image.path)) return void 0;
  const program = basename(words[0].text);
  if (OTHER_PROGRAM.test(program)) return null;
  if (PYTHON3.test(program) && /\.py$/.test(words[1]?.text ?? "") && !/vllm|sglang|llama/i.test(words[1].text))
    return null;
  if (PYTHON3.test(program) && words[1]?.text === "-m" && !/^(vllm|sglang)\b/.test(words[2]?.text ?? "")) return null;
  return void 0;
}
function inShell(words, dockerfile) {
  const [sh, c, text] = words;
  if (!sh || !c || !text || words.length !== 3 || !/^(?:\S*\/)?(ba|da)?sh$/.test(sh.text) || !/^-[a-z]*c$/.test(c.text))
    return words;
  if (![sh, c, text].every((w) => w.file === dockerfile)) return words;
  return lexWords(text.text, text.line).map((w) => ({ ...w, line: text.line, file: dockerfile }));
}
function ownArgs(found, dockerfile, what) {
  const args = found.args.filter((w) => w.file !== dockerfile);
  return args.length === found.args.length ? found : { ...found, args, builtBy: found.builtBy ?? what };
}

// src/domain/launch/unit.ts
var DEFAULT_TIMEOUT_SEC = 90;
function parseUnit(text) {
  const lines = text.split("\n");
  const unit = { sections: [], entries: [] };
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw || raw.startsWith("#") || raw.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]$/.exec(raw);
    if (header) {
      section = header[1];
      unit.sections.push({ name: section, line: i + 1 });
      continue;
    }
    const start = i;
    let value = raw;
    while (value.endsWith("\\") && i + 1 < lines.length) {
      value = value.slice(0, -1);
      i++;
      const next = lines[i].trim();
      if (next.startsWith("#") || next.startsWith(";")) {
        value += "\\";
        continue;
      }
      value += ` ${next}`;
    }
    const eq = value.indexOf("=");
    if (eq <= 0) continue;
    unit.entries.push({
      section,
      key: value.slice(0, eq).trim(),
      value: value.slice(eq + 1).trim().replace(/\s+/g, " "),
      line: start + 1,
      endLine: i + 1
    });
  }
  return unit;
}
function unitEntries(unit, section, key) {
  return unit.entries.filter((e) => e.section === section && e.key === key);
}
function unitValue(unit, section, key) {
  return unitEntries(unit, section, key).at(-1) ?? null;
}
function execCommands(unit, key, section = "Service") {
  let out = [];
  for (const e of unitEntries(unit, section, key)) {
    if (e.value === "") out = [];
    else out.push({ ...e, value: e.value.replace(/^[-@:+!]+/, "") });
  }
  return out;
}
var SPAN_UNITS = [
  [/^(usec|us|µs)$/, 1e-6],
  [/^(msec|ms)$/, 1e-3],
  [/^(seconds?|sec|s)$/, 1],
  [/^(minutes?|min|m)$/, 60],
  [/^(hours?|hr|h)$/, 3600],
  [/^(days?|d)$/, 86400],
  [/^(weeks?|w)$/, 604800],
  [/^(months?|M)$/, 2629800],
  [/^(years?|y)$/, 31557600]
];
function parseTimeSpan(value) {
  const s = value.trim();
  if (s === "infinity") return Infinity;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /\s*(\d+(?:\.\d+)?)\s*([A-Za-zµ]+)/gy;
  let total = 0;
  let end = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const unit = SPAN_UNITS.find(([r]) => r.test(m[2]));
    if (!unit) return null;
    total += Number(m[1]) * unit[1];
    end = re.lastIndex;
  }
  return end === s.length && end > 0 ? total : null;
}
function timeout(unit, key) {
  const entries = unit.entries.filter((e) => e.section === "Service" && (e.key === key || e.key === "TimeoutSec"));
  const entry = entries.at(-1) ?? null;
  if (!entry || entry.value === "") return { seconds: DEFAULT_TIMEOUT_SEC, entry: null };
  const seconds2 = parseTimeSpan(entry.value);
  return { seconds: seconds2 === 0 ? Infinity : seconds2 ?? DEFAULT_TIMEOUT_SEC, entry };
}
function timeoutStopSec(unit) {
  return timeout(unit, "TimeoutStopSec");
}
function timeoutStartSec(unit) {
  return timeout(unit, "TimeoutStartSec");
}

// src/domain/launch/unit-launcher.ts
var PYTHON_LAUNCHER = /^(?:\S*\/)?(?:\S+\.py|python[\d.]*(?:\s+-\S+)*\s+(?:\S+\.py|-m\s+\S+))(?:\s|$)/;
var SERVES = /\b(?:server|serving|inference|api)\b/i;
var HELPER = /\b(?:gateway|proxy|rpc|worker|router|monitor|exporter|watchdog|client|web-?ui|bench(?:mark)?|download|tunnel|swap|metrics|health)\b/i;
function describedEngine(text) {
  if (!SERVES.test(text) || HELPER.test(text)) return null;
  if (/\bvllm\b/i.test(text)) return "vllm";
  if (/\bsglang\b/i.test(text)) return "sglang";
  if (/\bllama[ ._-]?cpp\b|\bllama[ -]server\b/i.test(text)) return "llama.cpp";
  return null;
}
function launcherEngine(unit, command, before = []) {
  const description = unitValue(unit, "Unit", "Description")?.value ?? "";
  const words = command?.words ?? [];
  const line = words.map((w) => w.text).join(" ");
  if (!command) return null;
  const kind = describedEngine(description);
  if (kind && PYTHON_LAUNCHER.test(line)) return programEngine(kind, "systemd", command, line);
  const held2 = containerKind(description);
  const rm = before.map((c) => CONTAINER_RM.exec(c.words.map((w) => w.text).join(" "))).find((m) => m !== null);
  if (!held2 || !rm || !description.includes(rm[2]) || HELPER.test(description)) return null;
  return programEngine(held2, rm[1] === "podman" ? "podman" : "docker", command, line);
}
var CONTAINER_RM = /^(?:\S*\/)?(docker|podman)\s+(?:container\s+)?rm\s+(?:-\S+\s+)*(\S+)/;
function containerKind(text) {
  if (!/\bcontainers?\b/i.test(text)) return null;
  if (/\bvllm\b/i.test(text)) return "vllm";
  if (/\bsglang\b/i.test(text)) return "sglang";
  if (/\bllama[ ._-]?cpp\b|\bllama[ -]server\b/i.test(text)) return "llama.cpp";
  return null;
}
function programEngine(kind, runtime, command, builtBy) {
  return { kind, runtime, flags: [], args: [], source: "vllm", line: command.line, podmanRun: null, command, builtBy };
}

// src/domain/launch/python-launcher.ts
function pythonPrograms(script, scriptDir) {
  const out = [];
  for (const command of script.commands) {
    const w = peel(command.words).map((x) => x.text);
    const byVariable = /^\$\{?\w+\}?$/.test(w[0] ?? "") && /\.py$/.test(w[1] ?? "");
    if (!/^python[\d.]*$/.test(basename(w[0] ?? "")) && !byVariable) continue;
    let i = 1;
    while (i < w.length && w[i].startsWith("-") && w[i] !== "-m") i++;
    const file = (w[i] ?? "").replace(/^\$\{?\w+\}?\//, "/");
    const top = file !== w[i] && !file.slice(1).includes("/") ? [file.slice(1)] : [];
    const paths = w[i] === "-m" && w[i + 1] ? moduleFiles(w[i + 1]) : /\.py$/.test(file) && !/[$`]/.test(file) ? [file] : [];
    const candidates = [...paths, ...top.filter((t) => paths.length && /\.py$/.test(t))].flatMap(
      (p) => placed(p, scriptDir, w[i] !== "-m")
    );
    if (candidates.length) out.push({ command, candidates: [...new Set(candidates)] });
  }
  return out;
}
function consoleScripts(pyproject) {
  const out = /* @__PURE__ */ new Map();
  let inScripts = false;
  for (const line of pyproject.split("\n")) {
    const table = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (table) inScripts = /^(project\.scripts|tool\.poetry\.scripts)$/.test(table[1].trim());
    const m = inScripts ? /^\s*["']?([\w.-]+)["']?\s*=\s*["']([A-Za-z_][\w.]*)(?::[\w.]+)?["']/.exec(line) : null;
    if (m) out.set(m[1], m[2]);
  }
  return out;
}
function consoleScriptPrograms(script, scripts) {
  const out = [];
  for (const command of script.commands) {
    const mod = scripts.get(basename(peel(command.words)[0]?.text ?? ""));
    if (!mod) continue;
    const files = moduleFiles(mod);
    out.push({ command, candidates: [...files, ...files.map((f) => `src/${f}`)] });
  }
  return out;
}
function relativeImports(source, path) {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  return [...source.matchAll(/^\s*from\s+\.([A-Za-z_]\w*)\s+import\b/gm)].map((m) => `${dir}${m[1]}.py`);
}
function pyprojectPaths(scriptDir) {
  const parts = scriptDir ? scriptDir.split("/") : [];
  return parts.map((_, i) => `${parts.slice(0, parts.length - i).join("/")}/pyproject.toml`).concat("pyproject.toml");
}
function moduleFiles(mod) {
  if (!/^[A-Za-z_][\w.]*$/.test(mod) || /^(vllm|sglang|llama_cpp)\b/.test(mod)) return [];
  const p = mod.split(".").join("/");
  return [`${p}.py`, `${p}/__main__.py`];
}
function placed(path, scriptDir, file) {
  const rel = path.replace(/^\.\//, "");
  const parts = rel.split("/").filter(Boolean);
  const tails = file && rel.startsWith("/") ? parts.slice(0, -1).map((_, i) => parts.slice(i).join("/")) : [];
  const beside = scriptDir && !rel.startsWith("/") ? [`${scriptDir}/${rel}`] : [];
  return [...beside, ...rel.startsWith("/") ? [] : [rel], ...tails.filter((t) => t.includes("/"))].filter(
    (p) => !p.startsWith("/") && !p.split("/").includes("..")
  );
}
var STARTS = [
  // (not a logger's name: a copy of vLLM's server module keeps `init_logger('vllm.entrypoints.openai.api_server')`)
  [
    "vllm",
    /(?<!(?:init_logger|getLogger)\(\s*["'])vllm\.entrypoints\.openai\.api_server|["']vllm["']\s*,\s*["']serve["']|["']vllm serve\b/
  ],
  ["sglang", /sglang\.launch_server|["']sglang["']\s*,\s*["']serve["']/],
  ["llama.cpp", /["'][^"'\s]*llama-server(\.exe)?["']/]
];
function launchedEngine(source, args = []) {
  const kinds = STARTS.filter(([, re]) => re.test(source)).map(([k]) => k);
  const named = kinds.find((k) => args.some((a) => a.toLowerCase() === (k === "llama.cpp" ? "llama-server" : k)));
  return named ?? kinds[0] ?? null;
}
function launchedBy(script, command, kind) {
  const builtBy = peel(command.words).map((w) => w.text).join(" ");
  return { ...script, engine: programEngine(kind, "none", command, builtBy) };
}
function inlinePythonKind(words) {
  let i = 0;
  while (words[i] && /^(?:\S*\/)?(env|exec|tini|dumb-init)$/.test(words[i].text)) i++;
  if (!/^(?:\S*\/)?python[0-9.]*$/.test(words[i]?.text ?? "")) return null;
  const c = words.findIndex((w, j) => j > i && w.text === "-c");
  return c > 0 && words[c + 1] ? launchedEngine(words[c + 1].text) : null;
}

// src/domain/launch/library-call.ts
var PRINTS = /^(?:echo|printf|print\w*|log\w*|info|warn\w*|err\w*|debug|die|fail\w*|msg|say|note|notice|cat|tee|read|export|local|declare|readonly|alias|unset|trap|set|which|type|command)$/i;
var SOURCES = /^\s*(?:source|\.)\s+\S/m;
function libraryCallEngine(words, h, text, defined) {
  const name = words[0]?.text ?? "";
  if (!/^[A-Za-z_][\w-]*$/.test(name) || defined.has(name) || PRINTS.test(name) || !SOURCES.test(text)) return null;
  for (let k = 1; k < Math.min(words.length, 5); k++) {
    if (isFlagWord(words[k].text)) continue;
    const found = directEngine(words.slice(k), h);
    if (found) return found;
  }
  return null;
}

// src/domain/launch/role-branches.ts
var ROLE = /\b(LWS_WORKER_INDEX|LWS_LEADER_ADDRESS|JOB_COMPLETION_INDEX|POD_INDEX|NODE_RANK|NODE_INDEX|GROUP_RANK|RANK|ROLE|role|HOSTNAME|hostname|leader|worker|LEADER|WORKER|prefill|decode)\b/;
var branchLine = (l) => /^\s*(else\b|elif\b|;;|[^\s()]+\)\s*$)/.test(l) || /;;\s*$/.test(l);
function governing(lines, at2) {
  for (let i = at2; i >= 0; i--) {
    const l = lines[i] ?? "";
    if (/^\s*(if|elif|case)\b/.test(l)) return l;
  }
  return null;
}
function roleLaunches(found, lines, firstLine) {
  if (found.length < 2) return [];
  const sorted = [...found].sort((a, b) => a.command.line - b.command.line);
  const out = [sorted[0]];
  for (const e of sorted.slice(1)) {
    const prev = out.at(-1);
    const between = lines.slice(prev.command.endLine - firstLine + 1, e.command.line - firstLine);
    const branch = between.findIndex(branchLine);
    if (branch < 0) return [];
    const cond = governing(lines, prev.command.line - firstLine);
    const elif = /^\s*elif\b/.test(between[branch]) ? between[branch] : null;
    if (!ROLE.test(elif ?? cond ?? "")) return [];
    if (!out.some((o) => o.command === e.command)) out.push(e);
  }
  return out;
}

// src/domain/launch/blocked.ts
var FOREVER = (c) => {
  const w = c.words.map((x) => x.text);
  return w[0] === "sleep" && /^(inf|infinity)$/.test(w[1] ?? "") && w.length === 2 || w[0] === "tail" && w[1] === "-f" && w[2] === "/dev/null" && w.length === 3;
};
var OPENS_OR_CLOSES = /(^|[\s;])(if|then|else|elif|fi|case|esac|do|done|function)\b|[{}()]|;;|(^|[^&])&\s*(;|$)/;
function reachable(found, commands, lines, firstLine) {
  const waits = commands.filter(FOREVER);
  if (waits.length === 0) return [...found];
  return found.filter((e) => {
    const blocked = waits.some((w) => {
      if (w.line === e.command.line) {
        const text = lines[w.line - firstLine] ?? "";
        const at2 = /\b(sleep\s+inf(inity)?|tail\s+-f\s+\/dev\/null)\s*;/.exec(text);
        const prog = e.command.words[0]?.text ?? "";
        return at2 !== null && prog !== "" && text.indexOf(prog, at2.index + at2[0].length) >= 0;
      }
      if (w.line > e.command.line) return false;
      const span = lines.slice(w.line - firstLine, e.command.line - firstLine);
      const own = (lines[w.line - firstLine] ?? "").replace(/.*\b(sleep|tail)\b/, "");
      return !OPENS_OR_CLOSES.test(own) && !span.slice(1).some((l) => OPENS_OR_CLOSES.test(l));
    });
    return !blocked;
  });
}
function called(found, bodies, text) {
  if (!bodies?.length) return [...found];
  const code = text.split("\n").filter((l) => !/^\s*(echo|printf)\s/.test(l)).map((l) => l.replace(/(^|\s)#.*$/, "")).join("\n");
  const uncalled = bodies.filter((b) => {
    const uses = code.match(new RegExp(`(^|[^\\w$-])${b.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g"));
    return (uses?.length ?? 0) <= 1;
  });
  if (uncalled.length === 0) return [...found];
  return found.filter(
    (e) => !uncalled.some((b) => b.commands.includes(e.command) || b.commands.some((c) => c.line === e.command.line))
  );
}

// src/domain/launch/parse.ts
function parseServeScript(crlfText, options = {}) {
  const firstLine = options.firstLine ?? 1;
  const { text, state } = scriptCommands(crlfText, firstLine, options.positional);
  const { lines, commands } = state;
  const podmanRuns = commands.flatMap((c) => {
    for (const prog of ["podman", "docker"]) {
      for (const sub of ["run", "create"]) {
        const args = runsSubcommand(c, prog, sub);
        if (args) return [readPodmanRun(c, args, prog, sub === "create")];
      }
    }
    return [];
  });
  const runtime = options.runtime ?? "none";
  const nested = [];
  const hints = engineHints(text, state.assignments, runtime, nested, firstLine, options.outer);
  const defined = new Set((state.functionBodies ?? []).map((f) => f.name));
  const all = findEngines(
    commands,
    podmanRuns,
    hints,
    runtime,
    (words) => libraryCallEngine(words, hints, text, defined)
  );
  const launches = called(reachable(all, commands, lines, firstLine), state.functionBodies, text);
  const found = defaultBranchFirst(launches, lines, firstLine, state.env);
  for (const e of found) onWrittenLines(e, lines, firstLine);
  const written = found.length || options.heredocs === false ? [] : heredocEngines(text, firstLine, runtime, nested, state.assignments);
  const engine = found[0] ?? written[0] ?? null;
  for (const n of nested) {
    commands.push(...n.commands);
    podmanRuns.push(...n.podmanRuns);
  }
  const out = { text, lines, commands, assignments: state.assignments, podmanRuns, engine };
  const more = found.length ? separateLaunches(found, lines, firstLine) : written;
  if (more.length > 1) out.engines = more;
  const roles = roleLaunches(found, lines, firstLine);
  if (roles.length > 1) out.roles = roles;
  return out;
}
function onWrittenLines(e, lines, firstLine) {
  const at2 = e.flags[0]?.line;
  if (at2 === void 0 || e.flags.some((f) => f.line !== at2)) return;
  const all = [...Array(firstLine - 1).fill(""), ...lines];
  let end = at2;
  while (end < all.length && /\\\s*$/.test(all[end - 1])) end++;
  if (end > at2) placeFlags(e.flags, all, end);
}
function separateLaunches(ranked, lines, firstLine) {
  const branchBetween = (a, b) => {
    const [x, y] = a.command.line < b.command.line ? [a, b] : [b, a];
    return lines.slice(x.command.endLine - firstLine + 1, y.command.line - firstLine).some(branchLine);
  };
  const kept = [];
  for (const e of ranked) {
    if (e.podmanRun?.rm && e.flags.length === 0) continue;
    const apart = (k) => branchBetween(k, e) && k.kind === e.kind;
    if (kept.some((k) => k.command === e.command || sameLaunch(k, e) || apart(k))) continue;
    kept.push(e);
  }
  return kept;
}
function sameLaunch(a, b) {
  const at2 = (e) => e.command.words.map((w) => w.line).join(",");
  return a.command.line === b.command.line && at2(a) === at2(b);
}
function heredocEngines(text, firstLine, runtime, nested, outer) {
  const lines = text.split("\n");
  const out = [];
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!/<</.test(lines[i]) || !/vllm|sglang|llama/i.test(lines.slice(i + 1, i + 400).join("\n"))) continue;
    if (PRINTED_HEREDOC.test(lines[i])) {
      i = heredocAt(lines, i)?.end ?? i;
      continue;
    }
    const doc = heredocAt(lines, i);
    if (!doc) continue;
    const { body, end } = doc;
    const at2 = firstLine + i + 1;
    if (/^services\s*:/m.test(body.join("\n")) && COMPOSE_UP.test(text)) {
      const yaml = "\n".repeat(at2 - 1) + body.join("\n");
      for (const svc of parseCompose(yaml) ?? []) out.push(...runEngines(svc.run, yaml));
      i = end;
      continue;
    }
    const unit = body.some((l) => /^\s*\[Service\]\s*$/.test(l));
    const bodyText = unit ? execStartLines(body).join("\n") : body.join("\n");
    const inner = parseServeScript(bodyText, { firstLine: at2, runtime: unit ? "systemd" : runtime, outer });
    if (inner.engine) {
      const alternative = out.length > 0 && lines.slice(lastEnd + 1, i).some(branchLine);
      if (!alternative) {
        nested.push(inner);
        out.push(inner.engine);
      }
      lastEnd = end;
    }
    i = end;
  }
  return out;
}
var PRINTED_HEREDOC = /^\s*cat\s+<<-?\s*(['"]?)\w+\1\s*(1?>&2)?\s*$/;
function execStartLines(body) {
  let inExec = false;
  return body.map((l) => {
    const start = /^\s*ExecStart\s*=/.test(l);
    const keep = start || inExec;
    inExec = keep && /\\\s*$/.test(l);
    return start ? l.replace(/^\s*ExecStart\s*=\s*[-@:+!]*/, "") : keep ? l : "";
  });
}
function guesser(assignments, script = "") {
  const unquote = (t) => t.replace(/^["']|["']$/g, "");
  const positional = (t) => /^\$\{?[0-9@*]\}?$/.test(unquote(t));
  return (text) => {
    let t = text;
    for (let depth = 0; depth < 4; depth++) {
      const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?[-=]([^}]*))?\}?$/.exec(unquote(t));
      if (!m) break;
      const self = (v) => new RegExp(`^\\$\\{?${m[1]}\\b`).test(unquote(v));
      const ownDefault = (v) => {
        const d = new RegExp(`^\\$\\{${m[1]}:?[-=]([^}]+)\\}$`).exec(unquote(v))?.[1];
        return d && unquote(d) !== "" ? d : void 0;
      };
      const values = assignments.filter((a) => a.name === m[1] && !positional(a.value) && unquote(a.value) !== "").flatMap((a) => !self(a.value) ? [a.value] : ownDefault(a.value) ? [ownDefault(a.value)] : []);
      if (!values.length) values.push(...loopValues(script, m[1]).slice(0, 1));
      const probed = values.map((v) => probedProgram(unquote(v)) ?? computedProgram(unquote(v), script)).find((x) => x !== void 0);
      const dflt = m[2] !== void 0 && unquote(m[2]) === "" ? void 0 : m[2];
      const next = dflt ?? probed ?? values.at(-1) ?? namedBinary(m[1]) ?? m[2];
      if (next === void 0) break;
      t = unquote(next);
    }
    return unquote(t);
  };
}
function engineHints(text, assignments, runtime, nested, firstLine, outer = []) {
  return {
    source: (name) => {
      const own = new RegExp(`\\$\\{?${name}\\b`);
      for (const a of assignments.filter((x) => x.name === name).reverse()) {
        const src = assignedSource(text, a.line - firstLine, name, a.line) ?? capturedHeredoc(text, a.line - firstLine, name, a.line);
        if (src && !own.test(src.text)) return src;
      }
      return null;
    },
    guess: guesser([...outer, ...assignments], text),
    llama: /llama/i.test(text),
    nested: (inner, line, positional) => {
      const s = parseServeScript(inner, { firstLine: line, runtime, ...positional ? { positional } : {} });
      nested.push(s);
      const e = s.engine;
      const found = (x) => ({ kind: x.kind, args: x.args, run: x.podmanRun, runtime: x.runtime });
      return e ? { ...found(e), ...s.roles ? { roles: s.roles.map(found) } : {} } : null;
    }
  };
}
function capturedHeredoc(text, index, name, line) {
  const lines = text.split("\n");
  if (!new RegExp(`(^|[\\s;])${name}=["']?\\$\\(\\s*cat\\s*<<`).test(lines[index] ?? "")) return null;
  const doc = heredocAt(lines, index);
  return doc ? { text: doc.body.join("\n"), line: line + 1 } : null;
}
function findEngines(commands, runs2, hints, runtime, viaLibrary) {
  const candidates = [];
  const inRun = /* @__PURE__ */ new Set();
  for (const r of runs2) {
    inRun.add(r.command);
    const found = containerEngine(r, hints);
    if (found && !printsAndExits(found.args)) candidates.push(engineOf(found, r.runtime, r.command, r));
  }
  for (const c of commands) {
    if (inRun.has(c)) continue;
    const found = directEngine(c.words, hints) ?? viaLibrary(c.words) ?? inlineProgram(c.words);
    if (found && !printsAndExits(found.args)) candidates.push(engineOf(found, runtime, c, null));
  }
  const score = (c) => c.flags.length * 2 + (c.podmanRun?.rm && !isDetached(c.podmanRun) ? 0 : 1);
  return candidates.map((c, i) => ({ c, i })).sort((a, b) => score(b.c) - score(a.c) || a.i - b.i).map((x) => x.c);
}
function inlineProgram(words) {
  const kind = inlinePythonKind(words);
  return kind ? { kind, args: [], builtBy: "the inline `python -c` program" } : null;
}
function engineOf(found, runtime, command, containerRun) {
  const { flags } = readFlags(found.args);
  const run = containerRun ?? found.run ?? null;
  const rt = containerRun ? containerRun.runtime : found.runtime ?? runtime;
  return {
    kind: found.kind,
    runtime: rt,
    flags,
    args: found.args,
    source: run ? "podman" : "vllm",
    line: command.line,
    podmanRun: run,
    command: run?.command ?? command,
    ...found.builtBy ? { builtBy: found.builtBy } : {}
  };
}
function isDetached(run) {
  return run.options.some((o) => o.name === "--detach");
}
function runEngine(run, fileText) {
  return runEngines(run, fileText)[0] ?? null;
}
function runEngines(run, fileText) {
  const hints = engineHints(fileText, [], "none", [], 1);
  const built = run.build ? builtEngine(run, hints) : run.mounted ? mountedEngine(run) : void 0;
  const inline = built === void 0 ? inlinePythonKind(run.engineArgs) : null;
  const found = inline ? { kind: inline, args: [], builtBy: "the inline `python -c` program" } : built === void 0 ? containerEngine(run, hints) : built;
  if (!found) return [];
  return (found.roles ?? [found]).map((f) => engineOf(f, run.runtime, run.command, run));
}

// src/domain/launch/quadlet.ts
var OPTION_OF = {
  ContainerName: "--name",
  AddDevice: "--device",
  Volume: "--volume",
  Mount: "--mount",
  Environment: "--env",
  EnvironmentFile: "--env-file",
  PublishPort: "--publish",
  ShmSize: "--shm-size",
  Ulimit: "--ulimit",
  Network: "--network",
  Entrypoint: "--entrypoint",
  User: "--user",
  WorkingDir: "--workdir",
  Label: "--label",
  Secret: "--secret",
  HealthCmd: "--health-cmd",
  Tmpfs: "--tmpfs",
  GroupAdd: "--group-add",
  AddCapability: "--cap-add",
  Pod: "--pod"
};
var MULTI = /* @__PURE__ */ new Set(["Environment", "AddCapability", "Label"]);
var word = (text, line) => ({ text, line, optional: false, dynamic: false, resolved: text });
function valueWords(e, lines) {
  const raw = lines.slice(e.line - 1, e.endLine).join("\n");
  return lexWords(raw.slice(raw.indexOf("=") + 1), e.line).map((w) => ({
    text: w.text,
    line: w.line,
    optional: false,
    dynamic: w.dynamic,
    ...w.dynamic ? {} : { resolved: w.text }
  }));
}
function quadletRun(unit, lines) {
  const image = unitEntries(unit, "Container", "Image").at(-1);
  if (!image) return null;
  const exec = unitEntries(unit, "Container", "Exec").at(-1);
  const words = [word("--replace", image.line), word("--rm", image.line)];
  for (const e of unit.entries.filter((x) => x.section === "Container")) {
    const opt = OPTION_OF[e.key];
    if (e.key === "PodmanArgs") words.push(...valueWords(e, lines));
    else if (opt && MULTI.has(e.key)) for (const w of valueWords(e, lines)) words.push(word(opt, e.line), w);
    else if (opt) words.push(word(opt, e.line), word(e.value, e.line));
  }
  words.push(word(image.value, image.line));
  if (exec) words.push(...valueWords(exec, lines));
  const at2 = exec ?? image;
  const command = {
    words,
    assignments: [],
    line: at2.line,
    endLine: at2.endLine,
    source: lines.slice(at2.line - 1, at2.endLine).join("\n"),
    redirects: [],
    pipeTo: null
  };
  return readPodmanRun(command, words, "quadlet");
}

// src/domain/launch/unit-exec.ts
var EXEC_KEYS = ["ExecStartPre", "ExecStart", "ExecStartPost", "ExecStop", "ExecStopPost", "ExecReload"];
function execText(lines, line, endLine) {
  const raw = lines.slice(line - 1, endLine).join("\n");
  return raw.slice(raw.indexOf("=") + 1).replace(/^\s*[-@:+!]+/, "");
}
function execScripts(unit, lines, section = "Service") {
  return EXEC_KEYS.flatMap((key) => execCommands(unit, key, section)).sort((a, b) => a.line - b.line).map((e) => ({
    key: e.key,
    line: e.line,
    script: parseServeScript(execText(lines, e.line, e.endLine), { firstLine: e.line, runtime: "systemd" })
  }));
}
function execStartArgs(unitText, unitPath, scriptPath) {
  const lines = unitText.split("\n");
  const name = basename(scriptPath);
  for (const e of execScripts(parseUnit(unitText), lines).filter((x) => x.key === "ExecStart")) {
    for (const c of e.script.commands) {
      const w = programWords(c.words);
      const i = w.findIndex((x) => basename(x.text.replace(/["']/g, "")) === name);
      if (i >= 0 && i < w.length - 1) return w.slice(i + 1).map((x) => ({ ...x, file: unitPath }));
    }
  }
  return null;
}

// src/domain/launch/quadlet-keys.ts
var CONTAINER_KEYS = `AddCapability AddDevice AddHost Annotation AutoUpdate CgroupsMode ContainerName ContainersConfModule DNS
DNSOption DNSSearch DropCapability Environment EnvironmentFile EnvironmentHost Entrypoint Exec ExposeHostPort GIDMap
GlobalArgs Group GroupAdd HealthCmd HealthInterval HealthOnFailure HealthLogDestination HealthMaxLogCount
HealthMaxLogSize HealthRetries HealthStartPeriod HealthStartupCmd HealthStartupInterval HealthStartupRetries
HealthStartupSuccess HealthStartupTimeout HealthTimeout HostName IP6 IP Image Label LogDriver LogOpt Mask Memory Mount
Network NetworkAlias NoNewPrivileges Notify PidsLimit Pod PodmanArgs PublishPort Pull ReadOnly ReadOnlyTmpfs ReloadCmd
ReloadSignal RemapGid RemapUid RemapUidSize RemapUsers Retry RetryDelay Rootfs RunInit SeccompProfile Secret
SecurityLabelDisable SecurityLabelFileType SecurityLabelLevel SecurityLabelNested SecurityLabelType ServiceName
ShmSize StopSignal StartWithPod StopTimeout SubGIDMap SubUIDMap Sysctl Timezone Tmpfs UIDMap Ulimit Unmask User UserNS
VolatileTmp Volume WorkingDir`.split(/\s+/);
function misspeltContainerKey(unit) {
  for (const e of unit.entries) {
    if (e.section !== "Container" || CONTAINER_KEYS.includes(e.key)) continue;
    const meant = closest(e.key, CONTAINER_KEYS);
    if (meant) return { key: e.key, line: e.line, meant };
  }
  return null;
}

// src/domain/launch/launch.ts
var noBom = (text) => text.charCodeAt(0) === 65279 ? text.slice(1) : text;
function yamlKind(path, withBom) {
  if (!/\.ya?ml$/.test(path)) return null;
  const text = noBom(withBom);
  if (/^services\s*:/m.test(text)) return "compose";
  if (/^apiVersion\s*:/m.test(text) && /^kind\s*:/m.test(text)) return "kubernetes";
  return null;
}
var UNIT_FILE = /\.(service|socket|timer|target|mount|path)(\.(template|tmpl|tpl|in|j2|example))?$/;
function fileKind(path, text) {
  const yaml = yamlKind(path, text);
  if (yaml) return yaml;
  if (/\.container$/.test(path)) return "quadlet";
  if (UNIT_FILE.test(path)) return /^\s*\[Container\]\s*$/m.test(text) ? "quadlet" : "unit";
  if (/\.(sh|bash|zsh)$/.test(path) || /^#!/.test(text)) return "script";
  if (/^\s*\[Container\]\s*$/m.test(text)) return "quadlet";
  if (/^\s*\[Service\]\s*$/m.test(text) && /^\s*ExecStart=/m.test(text)) return "unit";
  return "script";
}
var HELM_TEMPLATE = /\{\{-?[^}]*?(\.Values\b|\.Release\b|\.Chart\b|\.Capabilities\b|\.Files\b|\binclude\b|\btemplate\b|\btoYaml\b|\btpl\b)/;
function releaseValuesOnly(text) {
  if (!/^kind:\s*HelmRelease\s*$/m.test(text) || yamlError(text) !== null) return false;
  return text.split("\n").filter((l) => l.includes("{{")).every((l) => /^\s*(-\s+)?([\w.-]+:\s+)?(["'])[^"']*\{\{[^"']*\3\s*(#.*)?$/.test(l));
}
function parseLaunchParts(kind, withBom, options = {}) {
  const yaml = kind === "compose" || kind === "kubernetes";
  const text = yaml ? noBom(withBom) : withBom;
  const templated = yaml && HELM_TEMPLATE.test(text) && !releaseValuesOnly(text);
  const bad = !yaml ? null : templated ? "a Helm template (its {{ }} are filled only by helm)" : yamlError(text);
  if (bad) {
    const what = kind === "compose" ? "a compose file" : "a Kubernetes manifest";
    return [
      {
        name: "",
        script: {
          ...empty(text),
          unreadable: `${what} that is ${bad}`,
          unreadableFix: templated ? "it holds {{ }} template expressions: keep it in a Helm chart (with its Chart.yaml) so preflight renders it with helm template, or render it and commit the result" : `fix the YAML (\`${kind === "compose" ? "docker compose config" : "kubectl apply --dry-run=client -f"} FILE\` shows the same error)`
        }
      }
    ];
  }
  if (kind === "compose")
    return (parseCompose(text, options.env, options.extended, options.dir, options.builds, options.buildEnv) ?? []).map(
      (s) => containerPart(s.name, withMountedEngine(withScriptEngine(s.run)), text, s.argvFrom)
    );
  if (kind === "kubernetes") return (parseKube(text) ?? []).flatMap((c) => podParts(c.name, c.run, text));
  const script = parseLaunch(kind, text, options.positional ? { positional: options.positional } : {});
  if (!script.engines) return [{ name: "", script }];
  const seen = /* @__PURE__ */ new Map();
  const written = (e) => e.command.words.find((w) => w.line !== e.command.line)?.line ?? e.command.line;
  return [...script.engines].sort((a, b) => a.command.line - b.command.line || written(a) - written(b)).map((engine) => {
    const n = (seen.get(engine.kind) ?? 0) + 1;
    seen.set(engine.kind, n);
    return { name: `${engine.kind} #${n}`, script: { ...script, engine, engines: void 0 } };
  });
}
function withScriptEngine(run) {
  const script = run.build?.script;
  if (script && run.build.scriptEngine === void 0)
    run.build.scriptEngine = scriptEngine(script.path, script.text, script.modules);
  return run;
}
function withMountedEngine(run) {
  const m = run.mounted;
  if (m && m.scriptEngine === void 0) m.scriptEngine = scriptEngine(m.path, m.text);
  return run;
}
function scriptEngine(path, text, modules = []) {
  if (/\.py$/.test(path)) {
    const kind = launchedEngine(text) ?? modules.map((m) => launchedEngine(m.text)).find((k) => k) ?? null;
    return kind ? { kind, passesArgs: false } : null;
  }
  const engine = parseLaunch("script", text).engine;
  if (engine) return { kind: engine.kind, passesArgs: /\$\{?[@*]/.test(engine.command.source) };
  const handed = modules.map((m) => parseLaunch("script", m.text).engine).find((e) => e);
  return handed ? { kind: handed.kind, passesArgs: false } : null;
}
function podParts(name, run, text) {
  const engines = runEngines(run, text);
  if (engines.length < 2) return [containerPart(name, run, text)];
  return engines.map((engine, i) => {
    const script = { ...empty(text), podmanRuns: [run], engine };
    placeFlags(engine.flags, script.lines);
    return { name: i === 0 ? name : `${name} #${i + 1}`, script };
  });
}
function containerPart(name, run, text, argvFrom) {
  const script = { ...empty(text), podmanRuns: [run], engine: runEngine(run, text) };
  const flags = script.engine?.flags ?? [];
  placeFlags(flags, argvFrom?.lines ?? script.lines);
  if (argvFrom) for (const f of flags) f.file ??= argvFrom.file;
  return { name, script };
}
function samePart(parts, name, head) {
  const last = (n) => n.split("/").at(-1);
  const engines = parts.filter((p) => p.script.engine);
  return parts.find((p) => p.name === name) ?? engines.find((p) => last(p.name) === last(name)) ?? // (a script's second engine is no renamed first one)
  (engines.length === 1 && !name.includes("#") ? engines[0] : void 0) ?? renamedPart(engines, name, head);
}
function renamedPart(engines, name, head) {
  if (!head) return void 0;
  const gone = engines.filter((p) => !head.includes(p.name));
  const added = head.filter((h) => !engines.some((p) => p.name === h));
  const i = added.indexOf(name);
  return i >= 0 && gone.length === added.length ? gone[i] : void 0;
}
function isNewPart(kind, baseText, headText, part) {
  if (kind !== "compose" && kind !== "kubernetes") return false;
  const last = (n) => n.split("/").at(-1);
  const base = parseLaunchParts(kind, baseText).filter((p) => p.script.engine);
  if (base.some((p) => p.name === part || last(p.name) === last(part))) return false;
  const head = parseLaunchParts(kind, headText).filter((p) => p.script.engine && p.name !== part);
  return head.some((h) => base.some((b) => b.name === h.name || last(b.name) === last(h.name)));
}
function parseLaunch(kind, text, options = {}) {
  if (kind === "compose" || kind === "kubernetes" || kind === "script" && options.part) {
    const parts = parseLaunchParts(kind, text, options);
    const part = options.part ? samePart(parts, options.part, options.headParts) : parts.find((p) => p.script.engine) ?? parts[0];
    return part?.script ?? empty(text);
  }
  try {
    if (kind === "script") return parseServeScript(text, { positional: [...options.positional ?? []] });
    const unit = parseUnit(text);
    return kind === "unit" ? unitLaunch(unit, text) : quadletLaunch(unit, text);
  } catch (e) {
    if (e instanceof NestingTooDeep) return { ...empty(text), unreadable: e.message };
    throw e;
  }
}
var empty = (text) => ({
  text,
  lines: text.split("\n"),
  commands: [],
  assignments: [],
  podmanRuns: [],
  engine: null
});
function unitLaunch(unit, text) {
  const out = empty(text);
  const scripts = execScripts(unit, out.lines);
  for (const e of scripts) {
    out.commands.push(...e.script.commands);
    out.podmanRuns.push(...e.script.podmanRuns);
    if (e.key === "ExecStart" && e.script.engine && !out.engine) out.engine = e.script.engine;
  }
  const start = scripts.find((e) => e.key === "ExecStart");
  const pre = scripts.filter((e) => e.key === "ExecStartPre").flatMap((e) => e.script.commands);
  if (!out.engine && start) out.engine = launcherEngine(unit, start.script.commands[0], pre);
  return out;
}
function quadletLaunch(unit, text) {
  const typo = misspeltContainerKey(unit);
  if (typo)
    return {
      ...empty(text),
      unreadable: `[Container] key ${typo.key}= (line ${typo.line}) is not one quadlet knows (did you mean ${typo.meant}=?): podman's quadlet generator rejects the file with "unsupported key" and no service is generated`,
      unreadableFix: `rename ${typo.key}= to ${typo.meant}= on line ${typo.line}; \`/usr/libexec/podman/quadlet -dryrun\` lists what the generator makes of the file`
    };
  const out = unitLaunch(unit, text);
  const run = quadletRun(unit, out.lines);
  if (run) {
    out.podmanRuns.unshift(run);
    out.engine = runEngine(run, text);
  }
  return out;
}

// src/domain/launch/compose-up.ts
import { basename as basename3, dirname, isAbsolute, join, normalize } from "node:path/posix";
var DEFAULT_COMPOSE_FILES = [
  "compose.yaml",
  "compose.yml",
  "podman-compose.yaml",
  "podman-compose.yml",
  "docker-compose.yml",
  "docker-compose.yaml"
];
var GLOBAL_VALUE = /^(-f|--file|-p|--project-name|--project-directory|--env-file|--profile|--ansi|--parallel|--progress|--podman-path|--podman-[a-z]+-args|--podman-args)$/;
var UP_VALUE = /^(-t|--timeout|--scale|--exit-code-from|--pull|--wait-timeout|--attach|--no-attach|--attach-dependencies-timeout)$/;
function toolOf(words) {
  const first = basename3(words[0] ?? "");
  if (first === "podman-compose") return { tool: "podman-compose", rest: 1 };
  if (first === "docker-compose") return { tool: "docker-compose", rest: 1 };
  if ((first === "podman" || first === "docker") && words[1] === "compose")
    return { tool: first === "docker" ? "docker compose" : "podman-compose", rest: 2 };
  return null;
}
function readComposeUp(command) {
  let words = command.words.map((w) => w.resolved ?? w.text);
  while (words[0] === "exec" || words[0] === "sudo" || words[0] === "nohup") words = words.slice(1);
  const t = toolOf(words);
  if (!t) return null;
  const up = {
    tool: t.tool,
    cli: t.tool === "podman-compose" ? "podman" : "docker",
    files: [],
    project: null,
    projectDirectory: null,
    services: [],
    forceRecreate: false,
    line: command.line
  };
  let i = t.rest;
  for (; i < words.length; i++) {
    const w = words[i];
    if (!w.startsWith("-")) break;
    const eq = w.indexOf("=");
    const [name, inline] = w.startsWith("--") && eq > 0 ? [w.slice(0, eq), w.slice(eq + 1)] : [w, null];
    if (!GLOBAL_VALUE.test(name)) continue;
    const value = inline ?? words[++i] ?? "";
    if (name === "-f" || name === "--file") up.files.push(value);
    else if (name === "-p" || name === "--project-name") up.project = value;
    else if (name === "--project-directory") up.projectDirectory = value;
  }
  if (words[i] !== "up") return null;
  for (i++; i < words.length; i++) {
    const w = words[i];
    if (w === "--force-recreate") up.forceRecreate = true;
    if (w.startsWith("-")) {
      if (UP_VALUE.test(w)) i++;
      continue;
    }
    up.services.push(w);
  }
  return up;
}
function composeUpIn(kind, text) {
  if (kind === "script") {
    for (const c of parseServeScript(text).commands) {
      const up = readComposeUp(c);
      if (up) return { up, workdir: null };
    }
    return null;
  }
  const unit = parseUnit(text);
  const wd = unitValue(unit, "Service", "WorkingDirectory")?.value.replace(/^-/, "") ?? null;
  for (const e of execScripts(unit, text.split("\n"))) {
    if (e.key !== "ExecStart") continue;
    for (const c of e.script.commands) {
      const up = readComposeUp(c);
      if (up) return { up, workdir: wd && isAbsolute(wd) ? wd : null };
    }
  }
  return null;
}
function composeHostFile(up, workdir) {
  const f = up.files[0];
  if (!f) return null;
  if (isAbsolute(f)) return normalize(f);
  const base = up.projectDirectory && isAbsolute(up.projectDirectory) ? up.projectDirectory : workdir;
  return base ? join(base, f) : null;
}
function composeProjectDir(up, hostFile, workdir) {
  if (up.tool !== "podman-compose" && up.projectDirectory && isAbsolute(up.projectDirectory))
    return normalize(up.projectDirectory);
  return hostFile ? dirname(hostFile) : workdir;
}
function composeProject(up, dir, topLevelName = null) {
  if (up.project) return up.project;
  if (up.tool === "podman-compose") {
    const name2 = dir === null ? "" : basename3(dir).toLowerCase().replace(/[^-_a-z0-9]/g, "");
    return name2 || null;
  }
  const normal = (s) => s.toLowerCase().replace(/[^a-z0-9_-]/g, "").replace(/^[-_]+/, "");
  const name = topLevelName ? normal(topLevelName) : dir === null ? "" : normal(basename3(dir));
  return name || null;
}
function composeContainerName(tool, project, service, containerName) {
  if (containerName) return containerName;
  const sep = tool === "docker compose" ? "-" : "_";
  return `${project}${sep}${service}${sep}1`;
}

// src/domain/launch/compose-target.ts
function composeFileRef(up, workdir, install2, scriptCompose) {
  const named = composeHostFile(up, workdir);
  if (scriptCompose) {
    const installed = workdir ? null : install2.find((i) => i.from === scriptCompose)?.to ?? null;
    return { repoFile: scriptCompose, hostFile: named ?? installed };
  }
  const candidates = named ? [named] : workdir ? DEFAULT_COMPOSE_FILES.map((n) => join2(workdir, n)) : [];
  for (const c of candidates) {
    const item = install2.find((i) => i.to === c);
    if (item) return { repoFile: item.from, hostFile: c };
  }
  return { repoFile: null, hostFile: named };
}
function composeTarget(up, workdir, ref, compose, part) {
  const services = compose ? parseCompose(compose.text, compose.env, compose.extended, compose.dir) ?? [] : [];
  const engine = compose ? parseLaunchParts("compose", compose.text, {
    env: compose.env,
    extended: compose.extended,
    dir: compose.dir,
    builds: compose.builds,
    buildEnv: compose.buildEnv
  }).find((p) => p.script.engine) : void 0;
  const named = up.services.length === 1 ? up.services[0] : null;
  const service = part ?? named ?? engine?.name ?? (services.length === 1 ? services[0].name : null);
  const dir = composeProjectDir(up, ref.hostFile, workdir);
  const project = composeProject(up, dir, compose ? composeName(compose.text, compose.env) : null);
  const svc = services.find((s) => s.name === service);
  if (svc?.containerName) return { service, container: svc.containerName, gap: null };
  if (!service)
    return {
      service: null,
      container: null,
      gap: "say which service runs the engine (set part: to its name in the compose file)"
    };
  if (!project)
    return {
      service,
      container: null,
      gap: "say where the compose file is on the host (an absolute -f path, or WorkingDirectory= in the unit) or give it -p NAME"
    };
  return { service, container: composeContainerName(up.tool, project, service, null), gap: null };
}
function launcherFiles(ep, launch) {
  const out = [];
  if (launch.kind === "script" || launch.kind === "unit") out.push({ path: launch.path, kind: launch.kind });
  if (ep.unit && ep.unit !== launch.path && !ep.unit.endsWith(".container")) out.push({ path: ep.unit, kind: "unit" });
  return out;
}
function composeLaunchIn(launchers, install2, scriptCompose) {
  for (const [index, l] of launchers.entries()) {
    const found = l.text === null ? null : composeUpIn(l.kind, l.text);
    if (found) return { ...found, ref: composeFileRef(found.up, found.workdir, install2, scriptCompose), index };
  }
  return null;
}

// src/domain/launch/container-cli.ts
function containerCli(script) {
  return script?.engine?.podmanRun?.runtime === "docker" ? "docker" : "podman";
}
function runsDirect(script) {
  return script?.engine != null && script.engine.podmanRun === null;
}

// src/stages/launch-script.ts
var show = (ctx, path) => ctx.reader.show(ctx.sha, ctx.repoPath(path)).catch(() => null);
async function readEndpointLaunch(ctx) {
  const ep = ctx.endpoint;
  const file = launchFile(ep);
  const text = await show(ctx, file.path);
  const kind = text !== null && file.kind === "script" ? yamlKind(file.path, text) ?? "script" : file.kind;
  const scriptCompose = kind === "compose" ? file.path : null;
  const yaml = kind === "compose" || kind === "kubernetes";
  const options = yaml ? {
    part: ep.part ?? null,
    ...kind === "compose" ? await composeInputs((p) => show(ctx, p), file.path, text) : {}
  } : {};
  const own = text === null ? null : parseLaunch(kind, text, options);
  const launchers = own?.engine && !yaml ? [] : await Promise.all(
    launcherFiles(ep, { path: file.path, kind }).map(async (l) => ({
      kind: l.kind,
      text: l.path === file.path ? text : await show(ctx, l.path)
    }))
  );
  const found = composeLaunchIn(launchers, ep.install ?? [], scriptCompose);
  if (!found) return { script: own, path: file.path, cli: containerCli(own), compose: null };
  const { ref } = found;
  const composeText = ref.repoFile === null ? null : ref.repoFile === file.path ? text : await show(ctx, ref.repoFile);
  const inputs = ref.repoFile === null ? { env: /* @__PURE__ */ new Map(), extended: /* @__PURE__ */ new Map() } : await composeInputs((p) => show(ctx, p), ref.repoFile, composeText);
  const target = composeTarget(
    found.up,
    found.workdir,
    ref,
    composeText === null ? null : { text: composeText, ...inputs },
    ep.part ?? null
  );
  const script = composeText === null ? null : parseLaunch("compose", composeText, { part: target.service, ...inputs });
  return {
    script,
    path: ref.repoFile ?? file.path,
    cli: found.up.cli,
    compose: { up: found.up, file: ref.repoFile, ...target }
  };
}

// src/stages/deploy/deploy.ts
var hostsArg = (ctx) => ctx.fleetHost ? ` --hosts ${ctx.fleetHost}` : "";
var msg = (e) => e instanceof Error ? e.message : String(e);
async function runDeploy(ctx, opts) {
  const findings = [];
  const done = (deployment = null) => ({
    findings,
    deployment,
    ok: !findings.some((f) => f.status === "fail")
  });
  const { service } = ctx.endpoint;
  const launch = await readEndpointLaunch(ctx);
  const { script, cli } = launch;
  const direct = !launch.compose && runsDirect(script);
  const container3 = ctx.endpoint.container ?? launch.compose?.container ?? (direct ? null : void 0);
  if (!service || container3 === void 0) {
    findings.push(
      missingConfig(
        ctx,
        [!service ? "service" : "", container3 === void 0 ? "container" : ""].filter(Boolean),
        launch.compose?.gap ?? void 0
      )
    );
    return done();
  }
  findings.push(pass("deploy.connect", `connected to ${ctx.host.name} (${ctx.host.origin ?? "host key pinned"})`));
  if (direct && ctx.endpoint.container) {
    findings.push(
      warn(
        "deploy.connect",
        `container: ${ctx.endpoint.container} is set, but ${ctx.configFile}'s launch file for ${ctx.name} runs the engine itself (no podman or docker run): deploy waits for that container`,
        {
          fix: `If the unit runs the engine without a container, remove container: from endpoints.${ctx.name} in ${ctx.configFile}; deploy then waits for the unit's new run.`
        }
      )
    );
  }
  let lock;
  try {
    const got = await takeLock(
      ctx.host,
      {
        endpoint: ctx.name,
        owner: opts.owner,
        ref: ctx.ref,
        sha: ctx.sha,
        staleAfterMs: ctx.endpoint.lock.staleAfter,
        waitMs: opts.lockWaitMs,
        signal: ctx.signal,
        fleetHost: ctx.fleetHost,
        progress: (l) => ctx.progress(`${ctx.name}: ${l}`)
      },
      ctx.now
    );
    if (!got.ok) {
      findings.push(
        got.stale ? fail("deploy.lock", `stale deploy lock on ${ctx.host.name}: ${got.detail}; ${got.stale}`, {
          evidence: [got.detail, got.stale],
          fix: `If no deploy of ${ctx.name} is running, clear it: ${got.clearCommand}`,
          data: { holder: got.held, stale: true, clear: got.clearCommand }
        }) : fail("deploy.lock", `another deploy holds the lock for ${ctx.name}: ${got.detail}`, {
          evidence: [got.detail],
          fix: `Wait for it to finish (${opts.lockWaitMs > 0 ? "a longer --lock-wait" : "or pass --lock-wait 10m"}). If that deploy is dead, clear it: ${got.clearCommand}`,
          data: { holder: got.held, stale: false, clear: got.clearCommand }
        })
      );
      return done();
    }
    lock = got.lock;
    findings.push(
      pass(
        "deploy.lock",
        `lock taken for ${ctx.name} on ${ctx.host.name}${got.waitedMs > 1e3 ? ` after waiting ${formatElapsed(got.waitedMs)}` : ""}`,
        { data: { dir: lock.dir } }
      )
    );
  } catch (e) {
    findings.push(
      fail("deploy.lock", `could not take the deploy lock: ${msg(e)}`, {
        fix: "Check that the SSH user can write to its home directory on the host."
      })
    );
    return done();
  }
  try {
    if (opts.dryRun) {
      findings.push(...await dryRun(ctx, service));
      return done();
    }
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, lock.signal]) : lock.signal;
    const result = await deploySteps(
      { ...ctx, signal },
      opts,
      service,
      { container: container3, cli, compose: launch.compose },
      script,
      findings,
      done
    );
    if (lock.lost) findings.push(lostLock(ctx, lock.lost));
    return lock.lost ? done(result.deployment) : result;
  } catch (e) {
    if (lock.lost) findings.push(lostLock(ctx, lock.lost));
    const check = e instanceof InstallError ? "deploy.install" : "deploy.restart";
    findings.push(
      fail(check, `deploy stopped: ${msg(e)}`, { fix: "Fix the cause above and deploy again; the lock was released." })
    );
    if (!opts.dryRun) await ensureUpFinding(ctx, service, findings);
    return done();
  } finally {
    await lock.release().catch(
      (e) => findings.push(
        warn("deploy.lock", `releasing the lock failed: ${msg(e)}`, {
          fix: `See who holds it: deploy-gate lock status --endpoint ${ctx.name}${hostsArg(ctx)}; clear it: deploy-gate lock release --endpoint ${ctx.name}${hostsArg(ctx)}`
        })
      )
    );
  }
}
function lostLock(ctx, why) {
  return fail("deploy.lock", `deploy stopped: this run no longer holds the lock for ${ctx.name}: ${why}`, {
    fix: `Two deploys ran at once. See who holds it now: deploy-gate lock status --endpoint ${ctx.name}${hostsArg(ctx)}; deploy again when it is free.`,
    data: { lost: true }
  });
}
async function ensureUpFinding(ctx, service, findings) {
  const note = await ensureUp(ctx.host, service).catch((e) => `checking the unit failed: ${msg(e)}`);
  if (note)
    findings.push(
      warn("deploy.restart", `${service} was down after the deploy: ${note}`, {
        fix: `Check it: systemctl status ${service}`
      })
    );
}
async function deploySteps(ctx, opts, service, { container: container3, cli, compose }, script, findings, done) {
  const flags = await checkImageFlags(ctx.host, script, (line) => ctx.progress(`${ctx.name}: ${line}`));
  findings.push(flags);
  if (flags.status === "fail") return done();
  let unitChanged = false;
  if ((ctx.endpoint.install ?? []).length === 0) {
    findings.push(
      warn(
        "deploy.install",
        `endpoint ${ctx.name} has no install: files; restarting ${service} with the files already on the host`,
        { fix: `Add install: entries to ${ctx.configFile} so the host runs the committed script.` }
      )
    );
  } else {
    const inst = await install(ctx, opts.owner);
    unitChanged = inst.unitChanged;
    findings.push(
      pass(
        "deploy.install",
        `${inst.written.length} of ${inst.planned.length} file(s) written at ${ctx.ref} (${ctx.sha.slice(0, 10)})${inst.record.previous ? `; previous ${inst.record.previous.ref}` : ""}`,
        {
          evidence: inst.planned.map((f) => `${f.to} ${f.mode} ${f.change === "same" ? "unchanged" : f.change}`),
          data: { written: inst.written.map((f) => f.to), record: inst.record }
        }
      )
    );
  }
  const rs = await restartUnit(ctx.host, service, unitChanged, (line) => ctx.progress(`${ctx.name}: ${line}`));
  const hang = rs.stopHang ? `${rs.stopHang}; then ` : "";
  const hangFix = rs.stopHang ? "A process in D state finishes its kernel wait on its own: wait and re-check ps before any GPU reset. " : "";
  findings.push(
    rs.ok ? (rs.stopHang ? warn : pass)(
      "deploy.restart",
      `${hang}${unitChanged ? "daemon-reload, " : ""}restarted ${service}; it is ${rs.unit?.activeState}`,
      {
        evidence: [...rs.commands, ...rs.evidence],
        ...rs.stopHang ? { fix: `${hangFix}Raise TimeoutStopSec= if the engine needs longer to stop.` } : {}
      }
    ) : fail(
      "deploy.restart",
      `${hang}${service} is not up after the restart (${rs.unit?.activeState ?? "unknown"}, Result=${rs.unit?.result ?? "?"})`,
      {
        evidence: [...rs.commands, ...rs.evidence],
        fix: `${hangFix}Read systemctl status ${service} and journalctl -u ${service}; a unit in start-limit-hit needs systemctl reset-failed ${service}.`
      }
    )
  );
  const deployment = {
    endpoint: ctx.name,
    ref: ctx.ref,
    sha: ctx.sha,
    startedAtHostMs: rs.mark.hostNowMs,
    journalCursor: rs.mark.cursor,
    containerId: null,
    containerCreatedAtHostMs: null,
    baselineRestarts: rs.baselineRestarts
  };
  const w = rs.ok ? await waitReady(ctx, {
    service,
    container: container3,
    startedAtHostMs: rs.mark.hostNowMs,
    cursor: rs.mark.cursor,
    baselineRestarts: rs.baselineRestarts,
    apiKey: apiKeyOf(ctx, opts.env),
    cli
  }) : null;
  const fresh = w?.decision.state.fresh ?? null;
  if (fresh) Object.assign(deployment, { containerId: fresh.id, containerCreatedAtHostMs: fresh.createdAtMs });
  if (w?.decision.kind === "ready") {
    const what = container3 === null ? `the unit's run ${short(fresh.id)} (started after the deploy began)` : `container ${short(fresh.id)} (created after the deploy began)`;
    findings.push(
      pass(
        "deploy.ready",
        `${ctx.name} is ready after ${formatElapsed((w.last?.hostNowMs ?? 0) - rs.mark.hostNowMs)}: ${what}, readiness marker seen (${JSON.stringify(w.decision.state.markerLine ?? "")})${ctx.endpoint.url ? `, ${ctx.endpoint.url}/v1/models lists ${ctx.endpoint.model ?? "a model"}` : ""}`,
        {
          data: { containerId: fresh.id, polls: w.polls, marker: w.decision.state.markerLine }
        }
      )
    );
    return done(deployment);
  }
  if (w)
    findings.push(readyFailure(ctx, w.decision, w.polls, cli, container3 === null, reuseFix(ctx, container3, compose)));
  const journal = await diagnoseDeploy(ctx.host, {
    service,
    container: container3,
    cursor: rs.mark.cursor,
    startedAtHostMs: rs.mark.hostNowMs,
    nRestarts: w?.last?.unit?.nRestarts ?? null,
    failure: w?.decision.kind === "fail" ? w.decision.failure : "unit-failed",
    install: ctx.endpoint.install,
    configFile: ctx.configFile,
    restartEvidence: rs.evidence
  });
  const d = w?.decision.kind === "fail" && w.decision.failure === "auth-mismatch" ? authMismatchDiagnosis(journal, w.decision.reason) : journal;
  findings.push(diagnosisFinding(d));
  await ensureUpFinding(ctx, service, findings);
  return done(deployment);
}
function reuseFix(ctx, container3, compose) {
  const unit = ctx.endpoint.unit ?? ctx.endpoint.service ?? "the unit";
  if (compose?.up.tool === "podman-compose") {
    const file = compose.up.files[0] ? ` -f ${compose.up.files[0]}` : "";
    return `podman-compose up starts an existing container of the same name as it was, so the changed compose file never ran: add ExecStartPre=-/usr/bin/podman-compose${file} down to ${unit} (or run up --force-recreate), then deploy again.`;
  }
  if (compose)
    return `Make ${unit} recreate the service's container on every start (compose up --force-recreate), then deploy again.`;
  return `Make ${unit} remove the old container before it starts the engine (ExecStartPre=-/usr/bin/podman rm -f ${container3 ?? "NAME"}, or podman run --replace), then deploy again.`;
}
function readyFailure(ctx, d, polls, cli, direct, reused) {
  const reason = d.kind === "fail" ? d.reason : "stopped waiting";
  const failure = d.kind === "fail" ? d.failure : null;
  return fail("deploy.ready", `${ctx.name} did not reach readiness: ${reason}`, {
    evidence: d.state.lastLine ? [`last engine line: ${d.state.lastLine}`] : [],
    fix: failure === "timeout" ? `The boot outlived boot.timeout (${formatElapsed(ctx.endpoint.boot.timeout)}): raise boot.timeout in ${ctx.configFile} if this boot is known to be slow, or read deploy.diagnosis for where it stalled.` : failure === "container-mismatch" ? `Make container: in ${ctx.configFile} the name the serve script gives ${cli} run --name (${d.state.otherContainers.join(", ")}), or the other way round.` : failure === "url-unreachable" ? `Check that url: in ${ctx.configFile} (${ctx.endpoint.url ?? "unset"}) reaches the port the engine listens on: ${direct ? "the engine's --host must not be 127.0.0.1 and its --port must be the url's" : `the host port of ${cli} run -p HOST:CONTAINER must map to the engine's --port`}, and the host's firewall must let the runner in.` : failure === "container-reused" ? reused : "Read deploy.diagnosis below for the cause.",
    data: { failure, phase: d.state.phase, containerId: d.state.fresh?.id ?? null, polls }
  });
}

// src/commands/shared/lifecycle.ts
var runAbort = new AbortController();
var beforeExit = [];
var SHUTDOWN_DEADLINE_MS = 1e4;
async function shutdown(signal, exitCode, say, deadlineMs = SHUTDOWN_DEADLINE_MS) {
  say(`deploy-gate: ${signal}: ${activeLocks().length ? "releasing host locks, then exiting" : "stopping"}`);
  runAbort.abort();
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve("late"), deadlineMs);
  });
  const done = await Promise.race([
    Promise.allSettled([releaseAllLocks(), ...beforeExit]).then(() => "done"),
    late
  ]);
  clearTimeout(timer);
  if (done === "late" && activeLocks().length)
    say(
      `deploy-gate: host locks not released within ${deadlineMs / 1e3} s: they go stale 2 minutes after their last heartbeat (deploy-gate lock status shows them)`
    );
  return exitCode;
}

export {
  shellQuote,
  shellJoin,
  NestingTooDeep,
  lexWords,
  basename,
  programWords,
  programOf,
  runsSubcommand,
  hasMergedStderr,
  heredocAt,
  loopValues,
  COMPOSE_UP,
  functionText,
  readFlags,
  UNIT_NAME,
  startedScripts,
  readYaml,
  YamlReader,
  parseUnit,
  unitEntries,
  unitValue,
  timeoutStopSec,
  timeoutStartSec,
  pythonPrograms,
  consoleScripts,
  consoleScriptPrograms,
  relativeImports,
  pyprojectPaths,
  launchedEngine,
  launchedBy,
  parseServeScript,
  composeInputs,
  composeInputsSync,
  execScripts,
  execStartArgs,
  yamlKind,
  fileKind,
  parseLaunchParts,
  isNewPart,
  parseLaunch,
  verdictOf,
  exitCodeOf,
  reportExitCode,
  pass,
  fail,
  warn,
  skip,
  parseLockRecord,
  HEARTBEAT_GRACE_S,
  lockStaleness,
  HOST_STATE_DIR,
  statePath,
  parseStateRecord,
  lockDir,
  underLockMutex,
  takeLock,
  launchFile,
  launcherFiles,
  composeLaunchIn,
  apiKeyOf,
  parseHostCopies,
  unitStartMs,
  formatElapsed,
  BAD_HEADER,
  request,
  runsDirect,
  readEndpointLaunch,
  runDeploy,
  runAbort,
  beforeExit,
  SHUTDOWN_DEADLINE_MS,
  shutdown
};
