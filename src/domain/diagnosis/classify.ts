// Diagnosis of a boot from its lines and unit events, incremental so a 200 MB dump runs in flat memory:
// every piece of state below is bounded.
import { isToolConfigGap } from "../engine/vllm/contracts.js";
import { hasPrefix, parseLine } from "../engine/vllm/lines.js";
import { bootPhase, isReadyMarker, type BootPhase } from "../engine/vllm/phase.js";
import { PlanReader, type CompileCache, type Plan } from "../engine/plan.js";
import { isSpecLine, readSpecDecode, type SpecDecode } from "../engine/vllm/specdecode.js";
import { advice } from "./advice.js";
import { failureOf, HOST_OOM, outranks, WORKER_DIED, type FailureMatch } from "../engine/vllm/failures.js";
import { familyOf, peerFailureOf } from "../engine/peers.js";
import { readOomGap, type OomGap } from "./oom.js";
import type { LogRecord } from "../journal/record.js";
import { decisiveOf, TracebackAssembler } from "./traceback.js";
import { mainUnit, statusHeaderEventOf, unitEventOf, type Attempt, type UnitEvent } from "./unit-events.js";
import { signatureOf } from "./signature.js";
import { belowOf, isNoise, type BelowMatch } from "./below-engine.js";
import { belowAdvice } from "./below-engine-advice.js";
import { isScheduled, kubeOf, type KubeMatch } from "./kube.js";
import {
  ALL,
  BELOW as BELOW_LINE,
  DIRTY,
  FAIL,
  groupsOf,
  KUBE,
  MISC,
  NOISE,
  PHASE,
  PLAN,
  READY,
  SERVICE,
  SERVING as SERVES,
  SPEC,
  TRACEBACK,
} from "./prefilter.js";
import type { AdviceFacts, DiagnosisClass } from "./types.js";
import { redactSecrets } from "../redact/redact.js";
import { parseNumber } from "../../lib/number.js";
import type { EngineKind } from "../engine/kind.js";

export type { DiagnosisClass } from "./types.js";

export interface Diagnosis {
  class: DiagnosisClass;
  decisive: string | null;
  plan: Plan;
  oom: OomGap | null;
  specDecode: SpecDecode | null;
  summary: string;
  fix: string | null;
  evidence: string[];
  phase: BootPhase | null;
  attempts: Attempt[];
  compileCache: CompileCache;
  /** a failure under the engine: its layer and the facts its fix names */
  below: BelowMatch | null;
  /** the engine that wrote the log, when a line said so */
  engine: EngineKind | null;
}

export interface DiagnoseInput {
  /** Decoded text, in order. */
  lines: string[];
  /** systemd events; `at` = how many of `lines` came before it (default: after all of them). */
  unitEvents?: Array<UnitEvent & { at?: number }>;
  nRestarts?: number;
  /** The service to judge when the events name several. */
  unit?: string;
}

interface Failure {
  kind: FailureMatch["kind"] | BelowMatch["kind"] | KubeMatch["kind"];
  /** 5 root cause … 1 wrapper. */
  priority: number;
  msg: string;
  seq: number;
  below?: BelowMatch;
}

const BANNER = /^vLLM (?:API )?server version |^Starting to load model|version \d+\.\d+\.\d+\S*$/;
const MAX_EVENTS = 2000;
const MAX_RING = 40;
const MAX_TAIL = 12;
/** Quiet spec-decode lines held before the newest is read (memory stays flat on a long log). */
const MAX_SPEC_PENDING = 64;
/** A tail line as shown: long ones cut. */
const tailText = (text: string): string => (text.length > 500 ? `${text.slice(0, 500)}…` : text);
/** Lines between an engine's exception and the line saying it died of it (either side). */
const CAUSE_WINDOW = 40;
/**
 * A request the server answered: uvicorn's access line (vLLM, SGLang), llama-server's request log (2026: `done request:
 * METHOD PATH ADDR STATUS`), on any OpenAI-style route (`/v1/audio/speech` and `/v1/rerank` as much as chat) or
 * SGLang's own `/generate`.
 */
const SERVING =
  /"(?:GET|POST) \/(?:v1\/\S+|generate) HTTP\/1\.[01]" 200\b|log_server_r: (?:done )?request: (?:GET|POST) \/v1\/\S+ \S+ 200\b/;
/** Journal identifiers of container runtimes, and the words that name one in a line. */
const RUNTIME_IDENT = /^(?:podman|docker|dockerd|conmon|crun|runc|containerd|nerdctl|kubelet|crio)$/;
const RUNTIME_WORD = /podman|docker|conmon|\bcrun\b|\brunc\b|containerd|libpod|nerdctl|kubelet|OCI runtime/i;
/** `systemctl status`'s header lines that carry the unit's state or an exit (unit-events.ts statusHeaderEventOf). */
const STATUS_HEADER = /^\s*(?:Main PID|Process|Active): /;
/** An engine saying it works around the allocation that just failed. */
const RECOVERED = /allocation failed, retrying without|retrying without pipeline parallelism/;
const BELOW: ReadonlySet<DiagnosisClass> = new Set(["engine-args", "runtime-error", "unit-error", "script-error"]);

export class Diagnoser {
  private seq = 0;
  private readonly planReader = new PlanReader();
  private readonly tracebacks = new TracebackAssembler();
  private readonly events: Array<UnitEvent & { seq: number }> = [];
  private readonly ring: string[] = [];
  /** the last MAX_TAIL lines of any kind (engine, script, systemd), a ring: the evidence of an `unknown` */
  private readonly tail: string[] = new Array<string>(MAX_TAIL).fill("");
  /** tail[i] is a raw line pushLine's fast path kept unparsed (quiet) */
  private readonly tailRaw = new Uint8Array(MAX_TAIL);
  /** lines ever kept in the tail (the newest is at (tailCount - 1) % MAX_TAIL) */
  private tailCount = 0;
  private failure: Failure | null = null;
  private previousFailure: Failure | null = null;
  private readySeq: number | null = null;
  /** exceptions engine processes logged after readiness, which alone are no failure (a request's) */
  private readonly servingErrors: Array<{ msg: string; seq: number }> = [];
  /** where an engine first said it died after readiness (vLLM logs that line, then the traceback) */
  private firstFatalSeq: number | null = null;
  /** uvicorn's line, or llama-server's `server is listening on http://…` */
  private readyLine = "Application startup complete.";
  /** readiness read from answered requests, not a startup line (a tool gap then says more than "ready") */
  private readyFromServing = false;
  private phase: BootPhase | null = null;
  private specLine: string | null = null;
  /** quiet lines holding `metrics: ` since specLine was set, raw, oldest first: the newest spec line of them wins */
  private readonly specPending: string[] = [];
  private toolGap: string | null = null;
  private dynamoConstant: number | null = null;
  private kvEstimate: number | null = null;
  private engineLines = 0;
  private bootedSinceStart = false;
  private engineUnit: string | null = null;
  /** a container runtime wrote or is named in the log (a bare `Error: …` line is then podman's, below) */
  private runtimeSeen = false;
  /** which engine wrote the log (the first line that says): the flags a fix names */
  private family: EngineKind | null = null;

  /** false: every pattern on every line (the prefilter's differential test) */
  private readonly prefilter: boolean;

  constructor(private readonly opts: { unit?: string; nRestarts?: number; prefilter?: boolean } = {}) {
    this.prefilter = opts.prefilter ?? true;
  }

  /** A decoded record: systemd's lines become unit events, everything else engine lines. */
  pushRecord(rec: LogRecord): void {
    // conmon's records carry the unit the container runs in: other units' events are noise.
    if (rec.container && rec.unit?.endsWith(".service")) this.engineUnit = rec.unit;
    if (rec.container || (rec.identifier !== null && RUNTIME_IDENT.test(rec.identifier))) this.runtimeSeen = true;
    const fromSystemd = rec.identifier === "systemd";
    // the line's literals, read once: pushLine's groups, and whether it names a .service (a line not from systemd is a
    // unit event only when it does: unitEventOf's own first test)
    const g = fromSystemd ? 0 : this.prefilter ? groupsOf(rec.text) : ALL | SERVICE;
    const ev =
      fromSystemd || (g & SERVICE && rec.text.includes(".service"))
        ? unitEventOf(rec.text, { fromSystemd, unit: rec.unit, ts: rec.ts })
        : null;
    if (ev) this.pushUnitEvent(ev);
    else if (!fromSystemd) this.line(rec.text, rec.container !== null, g & ~SERVICE);
    else this.pushSystemdLine(rec.text);
  }

  /** systemd's own lines that are no unit event: `Start request repeated …` variants, bad unit files. */
  private pushSystemdLine(text: string): void {
    this.keepTail(text);
    const below = belowOf(text);
    if (below) this.consider({ kind: below.kind, priority: below.priority, msg: text.trim(), seq: this.seq, below });
    this.considerHostOom(text);
  }

  /**
   * systemd saying the kernel's OOM killer ended the unit's process: the kernel's own line is not in a unit's journal.
   */
  private considerHostOom(text: string): void {
    if (HOST_OOM.test(text)) this.consider({ kind: "oom", priority: 5, msg: text.trim(), seq: this.seq });
  }

  pushUnitEvent(ev: UnitEvent): void {
    const want = this.opts.unit ?? this.engineUnit;
    if (want && ev.unit && ev.unit !== want) return;
    if (ev.kind === "started") this.newAttempt();
    this.events.push({ ...ev, seq: this.seq });
    if (this.events.length > MAX_EVENTS) this.events.shift();
    this.keepTail(ev.text);
    // `status=203/EXEC`, `217/USER`: systemd's exit codes say the unit never ran; a named cause line outranks it.
    const below = ev.kind === "main-exited" ? belowOf(ev.text) : null;
    if (below)
      this.consider({ kind: below.kind, priority: Math.min(below.priority, 4), msg: ev.text, seq: this.seq, below });
    this.considerHostOom(ev.text);
  }

  /**
   * One line of text. `fromContainer`: written by the engine's container (conmon), so only the engine's own
   * signatures apply; the runtime's and the shell's come from the unit's stdout.
   */
  pushLine(raw: string, opts: { fromContainer?: boolean } = {}): void {
    this.line(raw, opts.fromContainer === true, this.prefilter ? groupsOf(raw) & ~SERVICE : ALL);
  }

  /**
   * pushLine, given `g0`: the pattern groups whose literals the raw line holds (prefilter.ts; ALL with the prefilter
   * off); the rest cannot match. They are the message's when cleanLine leaves the line as it is (the message is then a
   * part of it: its groups are among the raw line's).
   */
  private line(raw: string, fromContainer: boolean, g0: number): void {
    this.seq++;
    // (a `│` frame around the line is cleanLine's too: a non-ASCII character the literal scan does not take)
    const clean = (g0 & DIRTY) === 0 && raw.charCodeAt(0) !== 0x2502;
    if (this.quiet(raw, g0)) return;
    const line = parseLine(raw);
    const msg = line.msg;
    const text = msg.trim();
    if (text === "") return;
    this.keepTail(text);
    const g = !this.prefilter ? ALL : clean ? g0 : groupsOf(msg);
    // Teardown chatter after the real error (signal proxy, resource_tracker, shutdown) never decides.
    if (g & NOISE && isNoise(msg)) return;
    // a traceback's frames and source lines (`raise ValueError("No available memory …")`) quote the cause's words:
    // the exception line after them is the cause
    if ((g & TRACEBACK || this.tracebacks.inside) && this.tracebacks.push(raw)) return;
    const errorish = line.level === null || line.level === "ERROR" || line.level === "CRITICAL";
    const below = errorish && g & BELOW_LINE ? belowOf(msg) : null;
    if (below && (!fromContainer || below.layer === "engine")) {
      this.remember(msg.trim());
      this.consider({ kind: below.kind, priority: below.priority, msg: msg.trim(), seq: this.seq, below });
    }
    if (!this.runtimeSeen && g & MISC && RUNTIME_WORD.test(msg)) this.runtimeSeen = true;
    // systemctl status's header: the unit's state and its exits, when systemd's own lines are not in the tail below it
    const mainExit = line.level === null && g & MISC && STATUS_HEADER.test(msg) ? statusHeaderEventOf(msg) : null;
    if (mainExit) this.pushUnitEvent(mainExit);
    // Kubernetes' own output (kubectl get pods / describe pod / get events) pasted with the log
    const kube = line.level === null && g & KUBE ? kubeOf(msg) : null;
    if (kube) this.considerKube(msg.trim(), kube);
    // the scheduler placed the pod after all: its FailedScheduling is over, a later event (a mount, a pull) decides
    else if (this.failure?.below?.facts.what === "kube-unschedulable" && g & KUBE && isScheduled(msg))
      this.failure = null;
    if (line.level !== null || line.proc !== null) this.engineLines++;
    if (this.family === null) {
      this.family = familyOf(raw.trim());
      // the first line that names the engine is the engine's (SGLang's `server_args=ServerArgs(…)` dump comes before
      // any levelled line): a boot has begun
      if (this.family !== null) this.engineLines++;
    }
    if ((msg.includes("version") || msg.startsWith("Starting to load model")) && BANNER.test(msg)) {
      // A second banner without a unit "Started" in between is a new boot too (podman logs of a restart).
      if (this.bootedSinceStart) this.newAttempt();
      this.bootedSinceStart = true;
    }
    // a plan line is the engine's, even pasted alone
    if (g & PLAN && this.planReader.push(msg)) this.engineLines++;
    // llama.cpp takes back a buffer OOM it recovers from (sched_reserve retries without pipeline parallelism)
    if (this.failure?.kind === "oom" && RECOVERED.test(msg)) this.failure = null;
    const phase = g & PHASE ? bootPhase(msg) : null;
    if (phase) {
      this.phase = phase;
      this.engineLines++;
    }
    if (g & READY && isReadyMarker(msg)) {
      this.readySeq = this.seq;
      this.readyLine = msg.includes("Application startup complete.") ? "Application startup complete." : msg.trim();
    } else if (this.readySeq === null && g & SERVES && SERVING.test(msg)) {
      // a window that starts mid-serving (systemctl status, a log tail) has no startup line: answered requests are the
      // proof
      this.readySeq = this.seq;
      this.readyLine = msg.trim();
      this.readyFromServing = true;
    }
    // the newest metrics line is the one that counts: read once, at the end
    if (msg.includes("metrics: ") && isSpecLine(msg)) {
      this.specLine = msg;
      this.specPending.length = 0;
    }
    // (each read only where its literal is: most lines have none)
    if (this.toolGap === null && msg.includes("tool") && isToolConfigGap(msg)) this.toolGap = msg.trim();
    const constant = msg.includes("a constant (")
      ? /(?:inferred to be|specialized it to) a constant \((\d+)\)/.exec(msg)
      : null;
    if (constant) this.dynamoConstant = Number(constant[1]);
    const est = msg.includes("estimated maximum") ? /estimated maximum model length is ([\d,]+)/.exec(msg) : null;
    if (est) this.kvEstimate = parseNumber(est[1]);
    const match = g & FAIL ? ((errorish ? peerFailureOf(msg) : null) ?? failureOf(msg, line.level)) : null;
    // A serving engine logs request errors with tracebacks: after readiness only an engine-level failure counts.
    if (match && !(this.readySeq !== null && match.priority === 3)) {
      this.remember(msg.trim());
      this.consider({ ...match, msg: msg.trim(), seq: this.seq });
      if (this.readySeq !== null && match.priority <= 2) this.firstFatalSeq ??= this.seq;
    } else if (line.level === "ERROR" || line.level === "CRITICAL") {
      this.remember(msg.trim());
      // a serving engine's exception: a request's, unless the engine dies of it (causeOfDeath)
      if (match) {
        this.servingErrors.push({ msg: msg.trim(), seq: this.seq });
        if (this.servingErrors.length > MAX_RING) this.servingErrors.shift();
      }
    }
  }

  /**
   * A fact Kubernetes reported about the pod, read from kubectl's JSON (kube-facts.ts), weighed like the same words
   * in kubectl's text. Pushed after the container's log, so a log line naming its cause at the same priority wins.
   */
  pushKube(line: string, m: KubeMatch): void {
    this.seq++;
    this.keepTail(line);
    this.considerKube(line, m);
  }

  private considerKube(line: string, m: KubeMatch): void {
    this.remember(line);
    this.consider({ kind: m.kind, priority: m.priority, msg: line, seq: this.seq, below: m.below });
  }

  /**
   * Most lines of a long log hold no literal of any group (prefilter.ts) over the whole raw line (`g`: ALL when the
   * line is not clean or the prefilter off): for those, when no traceback is open and the engine is known, pushLine
   * would only count the line and keep it in the tail. Done here without parsing it; the tail keeps the raw line and
   * parses it only if shown. The line must end in a visible character (its message is not empty).
   */
  private quiet(raw: string, g: number): boolean {
    // once ready, an answered request's line (SERVING alone) changes nothing either; a spec-decode metrics line (SPEC
    // alone) only matters if it is the newest: kept raw, read at the end (specPending)
    if (
      (g !== 0 && g !== SPEC && (g !== SERVES || this.readySeq === null)) ||
      this.family === null ||
      this.tracebacks.inside
    )
      return false;
    const last = raw.charCodeAt(raw.length - 1);
    if (!(last > 32 && last < 127)) return false;
    // (only whether there is one is read: the regex runs until the first)
    if (this.engineLines === 0 && hasPrefix(raw)) this.engineLines++;
    if (g === SPEC && this.specPending.push(raw) >= MAX_SPEC_PENDING) this.settleSpec();
    const at = this.tailCount++ % MAX_TAIL;
    this.tail[at] = raw;
    this.tailRaw[at] = 1;
    return true;
  }

  /** The newest pending line that is a spec-decode metrics line becomes specLine; the older ones no longer count. */
  private settleSpec(): void {
    const p = this.specPending;
    for (let i = p.length - 1; i >= 0; i--) {
      const msg = parseLine(p[i]!).msg;
      if (isSpecLine(msg)) {
        this.specLine = msg;
        break;
      }
    }
    p.length = 0;
  }

  private consider(f: Failure): void {
    if (outranks(f, this.failure)) this.failure = f;
  }

  private keepTail(text: string): void {
    const at = this.tailCount++ % MAX_TAIL;
    this.tail[at] = tailText(text);
    this.tailRaw[at] = 0;
  }

  finish(): Diagnosis {
    this.settleSpec();
    const unit = this.opts.unit ?? mainUnit(this.events);
    const events = this.events.filter((e) => !unit || !e.unit || e.unit === unit);
    const ready = this.readySeq !== null && (this.failure === null || this.readySeq > this.failure.seq);
    const failure = ready ? null : (this.failure ?? this.previousFailure);
    const sig = signatureOf(events, { ready, nRestarts: this.opts.nRestarts ?? 0 });
    const { attempts, startLimit } = sig;
    const stoppedAfterReady = ready && sig.stoppedAfter(this.readySeq!);

    let cls: DiagnosisClass;
    let decisive: string | null = null;
    let below: BelowMatch | null = failure?.below ?? null;
    if (!failure && startLimit && sig.refusedStart) {
      // systemd refused the deploy's own start: the limit was hit before this window (with failed exits or restarts
      // before it, the window shows the loop that hit it: a crash loop, below).
      cls = "unit-error";
      decisive = startLimit.text;
      below = {
        kind: "unit-error",
        layer: "systemd",
        priority: 5,
        facts: { what: "start-limit-hit", ...(unit ? { unit } : {}) },
      };
    } else if (failure && sig.loop && this.programError(failure, events)) {
      // the program's own error line under its unit's failed exit: the cause, inside the crash loop's signature
      cls = "crash-loop";
      decisive = failure.msg;
      below = null;
    } else if (failure) {
      cls = failure.kind;
      // a worker that died with no exception of its own (one would outrank this line): the tracebacks after it
      // are its consequences, so only a request's error right at the death can say more
      decisive =
        failure.priority >= 3
          ? failure.msg
          : WORKER_DIED.test(failure.msg)
            ? (this.causeOfDeath() ?? failure.msg)
            : (this.causeOfDeath() ?? this.tracebackDecisive() ?? failure.msg);
    } else if (sig.loop) {
      cls = "crash-loop";
      decisive = sig.loopLine;
    } else if (ready && sig.exitAfter(this.readySeq!) && !stoppedAfterReady) {
      cls = "container-removed";
      decisive = sig.exitAfter(this.readySeq!)!.text;
    } else if (ready && !(this.readyFromServing && this.toolGap)) {
      cls = "ready";
      decisive = this.readyLine;
    } else if (this.toolGap) {
      cls = "tools-not-enabled";
      decisive = this.toolGap;
    } else if (sig.exitAfter(0)) {
      cls = "clean-exit";
      decisive = sig.exitAfter(0)!.text;
    } else if (this.engineLines > 0) {
      cls = "booting";
    } else cls = "unknown";

    const oom = cls === "oom" && decisive ? (readOomGap(decisive) ?? this.oomFromRing()) : null;
    const facts: AdviceFacts = {
      decisive,
      oom,
      phase: this.phase,
      attempts,
      failedExits: sig.failedExits,
      startLimit: Boolean(startLimit),
      unit,
      engine: this.family,
      kv: cls === "kv-insufficient" && decisive ? kvFacts(decisive, this.kvEstimate) : null,
      dynamo:
        cls === "dynamo-shape" && decisive
          ? { symbol: /Constraints violated \((.+?)\)!/.exec(decisive)?.[1] ?? null, constant: this.dynamoConstant }
          : null,
    };
    const { summary, fix } = below
      ? belowAdvice(below, { ...(unit ? { service: unit } : {}), engine: this.family })
      : advice(cls, facts);
    // a failure's own summary says "crash loop" only when the window shows it repeat, not for its one exit
    const loopNote =
      failure && sig.repeated
        ? ` (crash loop: ${attempts.filter((a) => a.endedAt !== null).length} attempts ended)`
        : "";
    return {
      class: cls,
      decisive: decisive === null ? null : redactSecrets(decisive),
      plan: { ...this.planReader.plan },
      oom,
      specDecode: this.specLine === null ? null : readSpecDecode(this.specLine),
      summary: summary + loopNote,
      fix,
      evidence: this.evidence(cls).map(redactSecrets),
      phase: this.phase,
      attempts,
      compileCache: this.planReader.compileCache(),
      below,
      engine: this.family,
    };
  }

  private newAttempt(): void {
    if (this.failure) this.previousFailure = this.failure;
    this.failure = null;
    this.readySeq = null;
    this.readyFromServing = false;
    this.bootedSinceStart = false;
    this.firstFatalSeq = null;
    this.servingErrors.length = 0;
  }

  private remember(line: string): void {
    if (this.ring[this.ring.length - 1] === line) return;
    this.ring.push(line);
    if (this.ring.length > MAX_RING) this.ring.shift();
  }

  /** An engine dying after readiness: the first exception logged around where it first said so is the cause. */
  private causeOfDeath(): string | null {
    const at = this.firstFatalSeq;
    if (at === null) return null;
    return this.servingErrors.find((e) => Math.abs(e.seq - at) <= CAUSE_WINDOW)?.msg ?? null;
  }

  private tracebackDecisive(): string | null {
    return this.tracebacks.last ? decisiveOf(this.tracebacks.last) : null;
  }

  /**
   * A bare `Error: …` line (podman's catch-all, GENERIC_RUNTIME in below-engine.ts) in a log where no container runtime
   * appears, above a unit exit that is not a runtime's own (podman and docker exit 125-127 for their errors): a
   * program under systemd that prints its errors that way (Go's convention, e.g. Ollama), not podman.
   */
  private programError(failure: Failure, events: readonly UnitEvent[]): boolean {
    if (failure.below?.facts.what !== "runtime" || this.runtimeSeen) return false;
    const exit = [...events].reverse().find((e) => e.kind === "main-exited");
    const status = exit?.status ?? null;
    return status !== null && (status < 125 || status > 127);
  }

  private oomFromRing(): OomGap | null {
    for (let i = this.ring.length - 1; i >= 0; i--) {
      const gap = readOomGap(this.ring[i]!);
      if (gap) return gap;
    }
    // torch's message hard-wrapped by the tool it was pasted from: `Tried to allocate … of which … is free` on a line
    // of its own, which no failure pattern remembers; the tail still holds it
    for (let n = this.tailCount - 1; n >= Math.max(0, this.tailCount - MAX_TAIL); n--) {
      const t = this.tail[n % MAX_TAIL]!;
      const gap = readOomGap(this.tailRaw[n % MAX_TAIL] ? parseLine(t).msg : t);
      if (gap) return gap;
    }
    return null;
  }

  private evidence(cls: DiagnosisClass): string[] {
    if (cls === "ready" || cls === "booting") return [];
    // Nothing decisive: the last lines of the window, so nobody has to ssh in to read them.
    if (cls === "unknown") {
      const out: string[] = [];
      for (let n = Math.max(0, this.tailCount - MAX_TAIL); n < this.tailCount; n++) {
        const t = this.tail[n % MAX_TAIL]!;
        out.push(this.tailRaw[n % MAX_TAIL] ? tailText(parseLine(t).msg.trim()) : t);
      }
      return out;
    }
    if (BELOW.has(cls)) return [...this.ring.slice(-6), ...this.events.slice(-4).map((e) => e.text)];
    const tb = this.tracebacks.last?.content ?? [];
    const lines = tb.length > 0 ? tb : this.ring;
    const out = lines.slice(-12);
    const unitLines = this.events.slice(-8).map((e) => e.text);
    return cls === "crash-loop" || cls === "clean-exit" || cls === "container-removed" ? [...out, ...unitLines] : out;
  }
}

function kvFacts(line: string, estimate: number | null): AdviceFacts["kv"] {
  const m =
    /\(([\d.]+) Gi?B KV cache is needed, which is larger than the available KV cache memory \(([\d.]+) Gi?B\)/.exec(
      line,
    );
  // V0 spoke in tokens: `max seq len (131072) is larger than the maximum number of tokens … (22816)`
  const v0 =
    /max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV cache \((\d+)\)/.exec(
      line,
    );
  return {
    neededGiB: parseNumber(m?.[1]),
    availableGiB: parseNumber(m?.[2]),
    estimatedMaxLen: estimate,
    maxModelLen: parseNumber(v0?.[1]),
    capacityTokens: parseNumber(v0?.[2]),
  };
}

export function diagnose(input: DiagnoseInput): Diagnosis {
  const d = new Diagnoser({ unit: input.unit, nRestarts: input.nRestarts });
  const events = [...(input.unitEvents ?? [])].sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity));
  let e = 0;
  input.lines.forEach((line, i) => {
    while (e < events.length && (events[e]!.at ?? Infinity) <= i) d.pushUnitEvent(events[e++]!);
    d.pushLine(line);
  });
  while (e < events.length) d.pushUnitEvent(events[e++]!);
  return d.finish();
}
