// One command on one ssh2 channel: separate stdout/stderr, exit code or signal, a timeout that kills
// the remote command, a cap on captured output, and optional line callbacks. Streams are always drained.
import type { Client, ClientChannel } from "ssh2";
import type { RunOptions, RunResult } from "./host.js";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS } from "./host.js";
import { HostError } from "./errors.js";

type OnLine = (line: string, stream: "stdout" | "stderr") => void;

// The remote shell reports its PID first on stderr: sshd makes it a session (and process group)
// leader, so a timeout can kill the whole group, children included, not just the channel.
const PID_MARK = "deploy-gate-pid=";
export const wrapCommand = (command: string) => `echo ${PID_MARK}$$ >&2; ${command}`;

class Capture {
  pid: number | null = null;
  private head: Buffer | null = Buffer.alloc(0);
  private chunks: Record<"stdout" | "stderr", Buffer[]> = { stdout: [], stderr: [] };
  private partial: Record<"stdout" | "stderr", string> = { stdout: "", stderr: "" };
  private bytes = 0;
  truncated = false;
  constructor(private readonly cap: number, private readonly onLine?: OnLine) {}

  add(stream: "stdout" | "stderr", data: Buffer): void {
    if (stream === "stderr" && this.head) {
      const buf = Buffer.concat([this.head, data]);
      const nl = buf.indexOf(10);
      if (nl < 0) { this.head = buf; return; }
      const first = buf.subarray(0, nl).toString("latin1");
      this.head = null;
      if (first.startsWith(PID_MARK)) { this.pid = Number(first.slice(PID_MARK.length)) || null; data = buf.subarray(nl + 1); }
      else data = buf;
      if (data.length === 0) return;
    }
    const room = this.cap - this.bytes;
    if (room <= 0) this.truncated = true;
    else {
      const part = data.length > room ? data.subarray(0, room) : data;
      if (part.length < data.length) this.truncated = true;
      this.chunks[stream].push(part);
      this.bytes += part.length;
    }
    if (this.onLine) {
      const lines = (this.partial[stream] + data.toString("utf8")).split("\n");
      this.partial[stream] = lines.pop()!;
      for (const l of lines) this.onLine(l, stream);
    }
  }

  flush(): void {
    for (const s of ["stdout", "stderr"] as const) if (this.partial[s] && this.onLine) this.onLine(this.partial[s], s);
  }

  text(stream: "stdout" | "stderr"): string {
    return Buffer.concat(this.chunks[stream]).toString("utf8");
  }
}

/** The exit status as ssh2 reported it; recorded from the moment the channel exists. */
export interface ExitRecord { code: number | null; signal: string | null }
const EXITS = new WeakMap<ClientChannel, ExitRecord>();

function openExecOnce(client: Client, command: string): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, ch) => {
      if (err) return reject(err);
      // A fast command's exit-status can arrive in the same packet batch as the exec's success, and ssh2
      // emits 'exit' synchronously then: a listener added after an await would miss it (code null).
      const exit: ExitRecord = { code: null, signal: null };
      EXITS.set(ch, exit);
      ch.on("exit", (c: number | null, sig?: string) => {
        if (typeof c === "number") exit.code = c;
        if (sig) exit.signal = sig;
      });
      resolve(ch);
    });
  });
}

/**
 * sshd counts a session against MaxSessions until it has processed the channel's close, so a new channel
 * opened right after another closed can be refused ("Channel open failure") though the client's own bound
 * was kept. That refusal is transient: retry it a few times with backoff; anything else is final.
 */
export async function openExec(client: Client, command: string): Promise<ClientChannel> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openExecOnce(client, command);
    } catch (e) {
      const err = e as Error;
      if (!/Channel open failure/i.test(err.message) || attempt >= 5) {
        throw new HostError("closed", `cannot start a command on the host: ${err.message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

async function killGroup(client: Client, pid: number): Promise<void> {
  const ch = await openExec(client, `kill -KILL -- -${pid} 2>/dev/null; kill -KILL ${pid} 2>/dev/null; true`).catch(() => null);
  if (!ch) return;
  await new Promise<void>((r) => { const t = setTimeout(r, 5000); ch.on("close", () => { clearTimeout(t); r(); }); ch.resume(); ch.stderr.resume(); ch.end(); });
}

export async function execOnce(client: Client, command: string, opts: RunOptions = {}, onLine?: OnLine): Promise<RunResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ch = await openExec(client, wrapCommand(command));
  const cap = new Capture(opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, onLine);
  return new Promise((resolve) => {
    let timedOut = false;
    const exit = EXITS.get(ch) ?? { code: null, signal: null };
    const timer = setTimeout(() => {
      timedOut = true;
      const closeSoon = () => { ch.close(); setTimeout(() => finish(), 2000).unref(); };
      if (cap.pid) void killGroup(client, cap.pid).then(closeSoon);
      else { try { ch.signal("KILL"); } catch { /* channel already gone */ } closeSoon(); }
    }, timeoutMs);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      cap.flush();
      resolve({ code: timedOut ? null : exit.code, signal: timedOut ? (exit.signal ?? "KILL") : exit.signal, stdout: cap.text("stdout"), stderr: cap.text("stderr"), timedOut, truncated: cap.truncated, durationMs: Date.now() - t0 });
    };
    ch.on("data", (d: Buffer) => cap.add("stdout", d));
    ch.stderr.on("data", (d: Buffer) => cap.add("stderr", d));
    ch.on("close", finish);
    if (opts.stdin !== undefined) ch.end(opts.stdin);
    else ch.end();
  });
}
