#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  UsageError,
  colourOf,
  paint,
  sanitizeValue
} from "./chunk-5RGKNVFB.js";
import {
  Diagnoser,
  JournalDecoder,
  advice,
  authMismatchAdvice,
  failureOf,
  isToolConfigGap
} from "./chunk-3NKE7SWH.js";
import {
  cleanLine
} from "./chunk-7ICKPVQF.js";

// src/commands/explain/explain.ts
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";

// src/domain/report/diagnosis-text.ts
var HEALTHY = /* @__PURE__ */ new Set(["ready", "booting"]);
var PLAN_LABELS = [
  ["kvTokens", "KV cache", "tokens"],
  ["maxModelLen", "max model len", "tokens"],
  ["maxConcurrency", "max concurrency", "x"],
  ["gpuBlocks", "GPU blocks", ""],
  ["availableKvGiB", "KV memory", "GiB"],
  ["modelLoadGiB", "weights", "GiB"],
  ["modelLoadSeconds", "weight load", "s"],
  ["estimatedGraphGiB", "CUDA graphs (estimated)", "GiB"],
  ["graphGiB", "CUDA graphs (captured)", "GiB"],
  ["graphSeconds", "graph capture", "s"],
  ["compileSeconds", "torch.compile", "s"]
];
function num(n) {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : String(n);
}
function renderExplain(r, color) {
  const out = [];
  const bad = !HEALTHY.has(r.class);
  out.push(`${paint(color, bad ? "1;31" : "1;32", r.class.toUpperCase())}  ${r.summary}`);
  if (r.decisive) out.push(`${paint(color, "1", "decisive:")} ${r.decisive}`);
  if (r.oom) {
    const o = r.oom;
    out.push(
      `${paint(color, "1", "gap:")} tried ${o.triedGiB} GiB, free ${o.freeGiB ?? "?"} GiB of ${o.totalGiB ?? "?"} GiB, short ${o.shortfallGiB ?? "?"} GiB`
    );
  }
  if (r.fix) out.push(`${paint(color, "1;33", "fix:")} ${r.fix}`);
  const plan = PLAN_LABELS.filter(([k]) => r.plan[k] !== null);
  if (plan.length > 0) {
    out.push(paint(color, "1", "plan:"));
    for (const [k, label, unit] of plan)
      out.push(`  ${label.padEnd(24)} ${num(r.plan[k])}${unit === "x" ? "x" : unit ? ` ${unit}` : ""}`);
  }
  if (r.specDecode) {
    const s = r.specDecode;
    const rate = s.acceptanceRate === null ? "?" : `${(s.acceptanceRate * 100).toFixed(1)}%`;
    out.push(
      `${paint(color, "1", "spec decode:")} mean acceptance length ${s.meanAcceptanceLength ?? "?"}, acceptance ${rate}, per position ${s.perPosition.join("/") || "?"}`
    );
  }
  if (r.evidence.length > 0) {
    out.push(paint(color, "1", "evidence:"));
    for (const e of r.evidence) out.push(`  ${paint(color, "2", "\u2502")} ${e}`);
  }
  return out.join("\n") + "\n";
}

// src/domain/journal/paste.ts
var QUOTE = /^(?:[ \t]*>(?: |$))+/;
var GUTTER = /^[ \t]*L?\d{1,6}(?:[ \t]*[|│┃][ \t]?|:[ \t]+(?=\D)|\t)/;
var COMPOSE = /^[ \t]*(?:[A-Za-z0-9][\w.-]*[-_]\d+[ \t]+|(?!(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|WARN|ERROR|CRITICAL|FATAL)[ \t])[A-Za-z0-9][\w.-]*[ \t]{2,})\| ?/;
var BULLET = /^\* (?=\S{2,6} +\d{1,2} \d\d:\d\d:\d\d )/;
var JOURNAL_DECORATION = /^(?:░░|-- (?:Subject|Defined-By|Support|Documentation|Logs begin at|Journal begins at|Boot [0-9a-f]+ --|No entries --|Reboot --|The (?:unit|job|process)|A (?:start|stop) job|An ExecStart= process)|--\s*$)/;
var ELLIPSIS = /(?:…|\.\.\.)$/;
var RUNTIME_TS = /^(?<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) (?:(?:stdout|stderr) [FP] )?(?<rest>.*)$/s;
function unpaste(raw) {
  let line = raw.replace(QUOTE, "");
  line = line.replace(GUTTER, "").replace(COMPOSE, "").replace(BULLET, "");
  if (JOURNAL_DECORATION.test(line)) return null;
  let ts = null;
  const rt = RUNTIME_TS.exec(line);
  if (rt && !/^\S+ [^\s[:]+(?:\[\d+\])?: /.test(rt.groups.rest)) {
    const ms = Date.parse(rt.groups.iso.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
    ts = Number.isFinite(ms) ? ms * 1e3 : null;
    line = rt.groups.rest;
  }
  const cut = ELLIPSIS.test(line) && !/\.\.\.<\d+ lines>\.\.\.$/.test(line);
  if (cut) line = line.replace(ELLIPSIS, "");
  return { text: line, ts, cut };
}

// src/domain/journal/plain-log.ts
var SHORT = new RegExp("^\\s?(?<mon>\\p{L}{2,5}\\.?|\\d{1,2}[\u6708\uC6D4]) +(?<day>\\d{1,2}) (?<time>\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?) (?<host>\\S+) (?<ident>[^\\s[:]+)(?:\\[(?<pid>\\d+)\\])?: (?<msg>.*)$", "u");
var MONTH_WORDS = [
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
  ["jan", "feb", "m\xE4r", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez"],
  ["janv", "f\xE9vr", "mars", "avr", "mai", "juin", "juil", "ao\xFBt", "sept", "oct", "nov", "d\xE9c"],
  ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
  ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"],
  ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
  ["\u044F\u043D\u0432", "\u0444\u0435\u0432", "\u043C\u0430\u0440", "\u0430\u043F\u0440", "\u043C\u0430\u044F", "\u0438\u044E\u043D", "\u0438\u044E\u043B", "\u0430\u0432\u0433", "\u0441\u0435\u043D", "\u043E\u043A\u0442", "\u043D\u043E\u044F", "\u0434\u0435\u043A"]
];
function monthIndex(word) {
  const cjk = /^(\d{1,2})[月월]$/.exec(word);
  if (cjk) return Number(cjk[1]) - 1;
  const w = word.toLowerCase().replace(/\.$/, "");
  for (const names of MONTH_WORDS) {
    const i = names.indexOf(w);
    if (i >= 0) return i;
  }
  return w === "\u043C\u0430\u0439" ? 4 : 0;
}
var FULL = new RegExp("^(?:\\p{L}{1,4}\\.? )?(?<date>\\d{4}-\\d\\d-\\d\\d) (?<time>\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?)(?: [A-Z]{2,5}| [+-]\\d\\d(?::?\\d\\d)?)? (?<host>\\S+) (?<ident>[^\\s[:]+)(?:\\[(?<pid>\\d+)\\])?: (?<msg>.*)$", "u");
var MONO = /^\[\s*(?<mono>\d+\.\d+)\] (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
var ISO = /^(?<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?) (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
function shortTs(mon, day, time) {
  const [h, m, s] = time.split(":");
  const ms = Date.UTC(2e3, monthIndex(mon), Number(day), Number(h), Number(m), 0) + Number(s) * 1e3;
  return Math.round(ms * 1e3);
}
function readPlainLine(raw) {
  const pasted = unpaste(cleanLine(raw));
  if (pasted === null) return null;
  const line = pasted.text;
  if (line.trim() === "") return null;
  const short = SHORT.exec(line)?.groups;
  if (short) {
    return {
      ts: shortTs(short.mon, short.day, short.time),
      text: short.msg,
      priority: null,
      container: null,
      unit: null,
      identifier: short.ident
    };
  }
  const iso = ISO.exec(line)?.groups;
  if (iso) {
    const ms = Date.parse(iso.iso.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
    return {
      ts: Number.isFinite(ms) ? ms * 1e3 : 0,
      text: iso.msg,
      priority: null,
      container: null,
      unit: null,
      identifier: iso.ident
    };
  }
  const full = FULL.exec(line)?.groups;
  if (full) {
    const ms = Date.parse(`${full.date}T${full.time}Z`);
    return {
      ts: Number.isFinite(ms) ? ms * 1e3 : 0,
      text: full.msg,
      priority: null,
      container: null,
      unit: null,
      identifier: full.ident
    };
  }
  const mono = MONO.exec(line)?.groups;
  if (mono)
    return {
      ts: Math.round(Number(mono.mono) * 1e6),
      text: mono.msg,
      priority: null,
      container: null,
      unit: null,
      identifier: mono.ident
    };
  return { ts: pasted.ts ?? 0, text: line, priority: null, container: null, unit: null, identifier: null };
}

// src/commands/explain/json-records.ts
var MAX_OBJECT = 4 << 20;
var QUOTE2 = 34;
var BACKSLASH = 92;
var LF = 10;
var CR = 13;
var SPACE = 32;
var RecordSplitter = class {
  obj = Buffer.allocUnsafe(64 << 10);
  n = 0;
  depth = 0;
  inString = false;
  escaped = false;
  push(chunk) {
    const out = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.depth === 0) {
        if (c === 123) {
          this.put(c);
          this.depth = 1;
        } else if (c === LF) {
          if (this.n > 0) out.push(this.take());
        } else if (this.n > 0 || c !== 91 && c !== 93 && c !== 44 && c > SPACE) this.put(c);
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE2) this.inString = false;
      } else if (c === QUOTE2) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) this.depth--;
      this.put(c === LF || c === CR ? SPACE : c);
      if (this.depth === 0 || this.n > MAX_OBJECT) out.push(this.take());
    }
    return out;
  }
  end() {
    return this.n > 0 ? [this.take()] : [];
  }
  put(c) {
    if (this.n === this.obj.length) {
      const grown = Buffer.allocUnsafe(this.obj.length * 2);
      this.obj.copy(grown, 0, 0, this.n);
      this.obj = grown;
    }
    this.obj[this.n++] = c;
  }
  take() {
    this.put(LF);
    const line = Buffer.from(this.obj.subarray(0, this.n));
    this.n = 0;
    this.depth = 0;
    this.inString = this.escaped = false;
    return line;
  }
};
async function* recordLines(chunks) {
  const s = new RecordSplitter();
  for await (const chunk of chunks) {
    const out = s.push(chunk);
    if (out.length) yield out.length === 1 ? out[0] : Buffer.concat(out);
  }
  const last = s.end();
  if (last.length) yield last[0];
}
function opensRecords(firstLine) {
  return firstLine === "{" || /^\[\s*(?:\{|$)/.test(firstLine);
}

// src/domain/journal/lines.ts
var MAX_LINE = 1 << 20;
async function* lineBatches(chunks) {
  let rest = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    const cut = buf.lastIndexOf(10);
    if (cut < 0) {
      if (buf.length > MAX_LINE) {
        let at = MAX_LINE;
        while (at > 0 && (buf[at] & 192) === 128) at--;
        rest = buf.subarray(at);
        yield [buf.toString("utf8", 0, at)];
      } else rest = buf;
      continue;
    }
    rest = buf.subarray(cut + 1);
    yield buf.toString("utf8", 0, cut).split("\n");
  }
  if (rest.length > 0) yield [rest.toString("utf8")];
}
async function* utf8Chunks(chunks) {
  let decoder;
  for await (const chunk of chunks) {
    if (decoder === void 0) {
      const le = chunk[0] === 255 && chunk[1] === 254;
      const be = chunk[0] === 254 && chunk[1] === 255;
      decoder = le || be ? new TextDecoder(le ? "utf-16le" : "utf-16be") : null;
    }
    if (decoder === null) yield chunk;
    else yield Buffer.from(decoder.decode(chunk, { stream: true }), "utf8");
  }
  if (decoder) yield Buffer.from(decoder.decode(), "utf8");
}

// src/domain/diagnosis/result.ts
function toResult(d) {
  return {
    schema: 1,
    class: d.class,
    decisive: d.decisive,
    plan: d.plan,
    oom: d.oom,
    specDecode: d.specDecode,
    summary: d.summary,
    fix: d.fix,
    evidence: d.evidence
  };
}

// src/commands/explain/sniff.ts
function isJournalLine(line) {
  if (!line.startsWith("{")) return false;
  return /"(?:__REALTIME_TIMESTAMP|__CURSOR|MESSAGE|_TRANSPORT)"\s*:/.test(line);
}
function detectKind(text) {
  const first = text.split("\n", 50).find((l) => l.trim() !== "")?.trim() ?? "";
  if (isJournalLine(first)) return "journal-json";
  const body = stripHttpHeaders(text).trim();
  if (/^\{[\s\S]*\}$/.test(body) && /"(?:error|choices|object)"|'error'/.test(body)) return "http-body";
  return "plain-log";
}
var PROMPT = /^\s*[$#] curl\b[^\n]*\n/;
function stripHttpHeaders(raw) {
  const text = raw.replace(PROMPT, "");
  if (!/^HTTP\/\d/.test(text)) return text;
  const at = text.search(/\r?\n\r?\n/);
  return at < 0 ? "" : text.slice(at).trim();
}
function httpStatus(text, body) {
  const head = /^HTTP\/[\d.]+ (\d{3})/.exec(text.replace(PROMPT, ""))?.[1];
  if (head) return Number(head);
  const code = /"code"\s*:\s*"?(\d{3})/.exec(body)?.[1];
  return code ? Number(code) : null;
}
function explainHttp(text) {
  const body = stripHttpHeaders(text).trim();
  const status = httpStatus(text, body);
  const base = new Diagnoser().finish();
  const msg = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"|'message'\s*:\s*'([^']*)'|"detail"\s*:\s*"((?:[^"\\]|\\.)*)"|"error"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(
    body
  );
  const message = (msg?.[1] ?? msg?.[2] ?? msg?.[3] ?? msg?.[4] ?? body).replace(/\\"/g, '"').replace(/\\n/g, " ");
  const facts = (decisive) => ({
    decisive,
    oom: null,
    phase: null,
    attempts: [],
    startLimit: false,
    unit: null,
    kv: null,
    dynamo: null
  });
  if (status === 401 || status === 403) {
    const a = authMismatchAdvice({ decisive: `HTTP ${status}: ${message.slice(0, 200)}` });
    return {
      ...toResult(base),
      class: "auth-mismatch",
      decisive: `HTTP ${status}: ${message.slice(0, 200)}`,
      summary: a.summary,
      fix: a.fix,
      evidence: [body.slice(0, 500)]
    };
  }
  if (isToolConfigGap(body)) {
    const a = advice("tools-not-enabled", facts(message));
    return {
      ...toResult(base),
      class: "tools-not-enabled",
      decisive: message,
      summary: `HTTP ${status ?? "?"}: ${a.summary}`,
      fix: a.fix,
      evidence: [body.slice(0, 500)]
    };
  }
  const failure = failureOf(message, null);
  if (failure && failure.priority >= 5) {
    const a = advice(failure.kind, facts(message));
    return {
      ...toResult(base),
      class: failure.kind,
      decisive: message,
      summary: `HTTP ${status ?? "?"}: ${a.summary}`,
      fix: a.fix,
      evidence: [body.slice(0, 500)]
    };
  }
  return {
    ...toResult(base),
    class: "unknown",
    decisive: body.slice(0, 300),
    summary: `an HTTP body${status ? ` (status ${status})` : ""} with no known failure signature`,
    fix: base.fix
  };
}
var Feeder = class {
  constructor(kind, diagnoser) {
    this.diagnoser = diagnoser;
    this.journal = kind === "journal-json" ? new JournalDecoder() : null;
  }
  diagnoser;
  /** Journal input only: its WebAssembly instance and windows cost more than a short pasted log's diagnosis. */
  journal;
  out = [];
  push(line) {
    if (this.journal) {
      for (const rec of this.journal.push(line)) this.diagnoser.pushRecord(rec);
    } else {
      const rec = readPlainLine(line);
      if (rec) this.diagnoser.pushRecord(rec);
    }
  }
  /** Journal bytes as read (any cut): decoded in place, no string made of each line. */
  pushBytes(chunk) {
    this.out.length = 0;
    for (const rec of this.journal.pushBytes(chunk, this.out)) this.diagnoser.pushRecord(rec);
  }
  finish() {
    if (this.journal) for (const rec of this.journal.flush()) this.diagnoser.pushRecord(rec);
    return this.diagnoser.finish();
  }
};
function explain(text, opts = {}) {
  const records = journalRecords(text);
  if (records !== null) return explain(records, opts);
  const kind = detectKind(text);
  if (kind === "http-body") return explainHttp(text);
  const feeder = new Feeder(kind, new Diagnoser(opts));
  for (const line of text.split("\n")) feeder.push(line);
  return toResult(feeder.finish());
}
async function explainStream(lines, opts = {}) {
  let feeder = null;
  const head = [];
  let judged = false;
  const start = (kind) => {
    const f = new Feeder(kind, new Diagnoser(opts));
    for (const h of head) f.push(h);
    return f;
  };
  for await (const item of lines) {
    for (const line of typeof item === "string" ? [item] : item) {
      if (feeder) {
        feeder.push(line);
        continue;
      }
      head.push(line);
      if (!judged) {
        const t = line.trim();
        if (t === "") continue;
        judged = true;
        if (isJournalLine(t)) feeder = start("journal-json");
        else if (!t.startsWith("{") && !/^HTTP\/\d/.test(t) && !/^[$#] curl\b/.test(t)) feeder = start("plain-log");
      } else if (head.length >= MAX_GATHERED) feeder = start("plain-log");
    }
  }
  if (!feeder) return explain(head.join("\n"), opts);
  return toResult(feeder.finish());
}
var MAX_GATHERED = 2e3;
var PEEK_BYTES = 1 << 20;
async function explainBytes(chunks, opts = {}) {
  const it = utf8Chunks(chunks)[Symbol.asyncIterator]();
  const held = [];
  let size = 0;
  let journal = null;
  let ended = false;
  while (journal === null) {
    const next = await it.next();
    if (ended = next.done === true) break;
    held.push(next.value);
    size += next.value.length;
    journal = judgeFirstLine(held.length === 1 ? next.value : Buffer.concat(held), size > PEEK_BYTES);
  }
  journal ??= held.length ? judgeFirstLine(Buffer.concat(held), true) : null;
  const notALog = unreadable(held, size, ended);
  if (notALog) return { ...toResult(new Diagnoser(opts).finish()), ...notALog, evidence: [] };
  const rest = { [Symbol.asyncIterator]: () => it };
  if (journal === "records") return explainRecords(held, rest, opts);
  if (journal === "journal") {
    const feeder = new Feeder("journal-json", new Diagnoser(opts));
    chunks.reuse?.();
    for (const b of held) feeder.pushBytes(b);
    for await (const b of rest) feeder.pushBytes(b);
    return toResult(feeder.finish());
  }
  return explainStream(lineBatches(replay(held, rest)), opts);
}
function unreadable(held, size, ended) {
  if (size === 0 || ended && held.every((b) => b.every((c) => c === 10 || c === 13 || c === 32 || c === 9))) {
    return {
      summary: "the input is empty",
      fix: 'save the log first, e.g. journalctl -u UNIT -o json --since "1 hour ago" > boot.json, then explain boot.json'
    };
  }
  const head = held[0].subarray(0, 8192);
  const control = head.reduce(
    (n, c) => n + (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27 || c === 127 ? 1 : 0),
    0
  );
  if (control * 20 > head.length) {
    return {
      summary: `the input is not a text log (${control} control bytes in its first ${head.length})`,
      fix: "pass the log as text: journalctl -o json, podman logs, or the saved console output (a compressed file: unpack it first)"
    };
  }
  return null;
}
function judgeFirstLine(buf, giveUp) {
  const kind = (t) => isJournalLine(t) ? "journal" : opensRecords(t) ? "records" : "other";
  let a = 0;
  for (; ; ) {
    const nl = buf.indexOf(10, a);
    if (nl < 0) return giveUp ? kind(buf.toString("utf8", a).trim()) : null;
    const t = buf.toString("utf8", a, nl).trim();
    if (t !== "") return kind(t);
    a = nl + 1;
  }
}
function journalRecords(text) {
  const first = text.split("\n", 50).find((l) => l.trim() !== "")?.trim() ?? "";
  if (!opensRecords(first)) return null;
  const s = new RecordSplitter();
  const lines = Buffer.concat([...s.push(Buffer.from(text, "utf8")), ...s.end()]).toString("utf8");
  return isJournalLine(lines.slice(0, lines.indexOf("\n") + 1 || void 0).trim()) ? lines : null;
}
async function explainRecords(held, rest, opts) {
  const seen = [...held];
  let watching = true;
  const watched = (async function* () {
    for await (const b of rest) {
      if (watching) seen.push(b);
      yield b;
    }
  })();
  const lines = recordLines(replay(held, watched))[Symbol.asyncIterator]();
  const first = await lines.next();
  const head = first.done ? "" : first.value.toString("utf8", 0, Math.max(0, first.value.indexOf(10)));
  if (!first.done && isJournalLine(head.trim())) {
    watching = false;
    seen.length = 0;
    const feeder = new Feeder("journal-json", new Diagnoser(opts));
    feeder.pushBytes(first.value);
    for await (const b of { [Symbol.asyncIterator]: () => lines }) feeder.pushBytes(b);
    return toResult(feeder.finish());
  }
  return explainStream(lineBatches(replay(seen, watched)), opts);
}
async function* replay(held, rest) {
  yield* held;
  yield* rest;
}

// src/commands/explain/explain.ts
function fileChunks(path) {
  let reused = null;
  let reuse = false;
  const buffer = () => reuse ? reused ??= Buffer.allocUnsafe(CHUNK) : Buffer.allocUnsafe(CHUNK);
  const chunk = (buf, n) => n === CHUNK ? buf : buf.subarray(0, n);
  return {
    reuse: () => void (reuse = true),
    async *[Symbol.asyncIterator]() {
      if (path === "/dev/stdin") {
        const fh = await open(path, "r");
        try {
          for (let buf = buffer(), n; (n = (await fh.read(buf, 0, CHUNK, null)).bytesRead) > 0; buf = buffer())
            yield chunk(buf, n);
        } finally {
          await fh.close();
        }
        return;
      }
      const fd = openSync(path, "r");
      try {
        for (let buf = buffer(), n; (n = readSync(fd, buf, 0, CHUNK, null)) > 0; buf = buffer()) yield chunk(buf, n);
      } finally {
        closeSync(fd);
      }
    }
  };
}
var CHUNK = 1 << 20;
async function explainCommand(opts, io) {
  const file = opts.file;
  const path = file === "-" ? "/dev/stdin" : resolve(io.cwd, file);
  if (file !== "-" && !existsSync(path))
    throw new UsageError(
      `explain: ${file} does not exist (save a dump with: journalctl -o json --since "30 min ago" > boot.json)`
    );
  if (file !== "-" && statSync(path).isDirectory())
    throw new UsageError(
      `explain: ${file} is a directory: pass a file (a journalctl -o json dump, a plain log or a response body), or - for stdin`
    );
  const result = sanitizeValue(await explainBytes(fileChunks(path)));
  io.out(opts.json ? JSON.stringify(result, null, 2) + "\n" : renderExplain(result, colourOf(opts, io)));
  return result.class === "ready" || result.class === "booting" ? 0 : 1;
}

export {
  renderExplain,
  toResult,
  fileChunks,
  explainCommand
};
