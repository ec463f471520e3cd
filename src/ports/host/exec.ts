// One command on one ssh2 channel: separate stdout/stderr, exit code or signal, a timeout that kills
// the remote command, a cap on captured output, and optional line callbacks. Streams are always drained.
import { StringDecoder } from "node:string_decoder";
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
  // A UTF-8 character split between two packets is joined, not turned into two U+FFFD.
  private readonly utf8 = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  private bytes = 0;
  truncated = false;
  constructor(
    private readonly cap: number,
    private readonly onLine?: OnLine,
  ) {}

  add(stream: "stdout" | "stderr", data: Buffer): void {
    if (stream === "stderr" && this.head) {
      const buf = Buffer.concat([this.head, data]);
      const nl = buf.indexOf(10);
      if (nl < 0) {
        this.head = buf;
        return;
      }
      const first = buf.subarray(0, nl).toString("latin1");
      this.head = null;
      if (first.startsWith(PID_MARK)) {
        this.pid = Number(first.slice(PID_MARK.length)) || null;
        data = buf.subarray(nl + 1);
      } else data = buf;
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
      const lines = (this.partial[stream] + this.utf8[stream].write(data)).split("\n");
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

// `attach` runs inside ssh2's callback: a fast command's exit and close can follow the exec reply in
// the same tick, before any code awaiting the channel would run, and would be lost.
function openExecOnce(client: Client, command: string, attach?: (ch: ClientChannel) => void): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, ch) => {
      if (err) return reject(err);
      attach?.(ch);
      resolve(ch);
    });
  });
}

/**
 * sshd counts a session against MaxSessions until it has processed the channel's close, so a new channel
 * opened right after another closed can be refused ("Channel open failure") though the client's own bound
 * was kept. That refusal is transient: retry it a few times with backoff; anything else is final.
 */
export async function openExec(
  client: Client,
  command: string,
  attach?: (ch: ClientChannel) => void,
): Promise<ClientChannel> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openExecOnce(client, command, attach);
    } catch (e) {
      const err = e as Error;
      if (!/Channel open failure/i.test(err.message) || attempt >= 5) {
        throw new HostError("closed", `cannot start a command on the host: ${err.message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** The channel-open request has no timeout of its own in ssh2: a dead link would hold it until keepalive gives up. */
function withDeadline<T>(p: Promise<T>, ms: number, err: () => Error, late: (v: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const t = setTimeout(() => {
      expired = true;
      reject(err());
    }, ms);
    p.then(
      (v) => {
        if (expired) late(v);
        else {
          clearTimeout(t);
          resolve(v);
        }
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e as Error);
      },
    );
  });
}

async function killGroup(client: Client, pid: number): Promise<void> {
  const ch = await openExec(client, `kill -KILL -- -${pid} 2>/dev/null; kill -KILL ${pid} 2>/dev/null; true`).catch(
    () => null,
  );
  if (!ch) return;
  await new Promise<void>((r) => {
    const t = setTimeout(r, 5000);
    ch.on("close", () => {
      clearTimeout(t);
      r();
    });
    ch.resume();
    ch.stderr.resume();
    ch.end();
  });
}

export async function execOnce(
  client: Client,
  command: string,
  opts: RunOptions = {},
  onLine?: OnLine,
): Promise<RunResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cap = new Capture(opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, onLine);
  let code: number | null = null;
  let signal: string | null = null;
  let closed = false;
  let onClose = () => {};
  const openMs = Math.min(timeoutMs, 60_000);
  const ch = await withDeadline(
    openExec(client, wrapCommand(command), (c) => {
      c.on("exit", (n: number | null, sig?: string) => {
        if (typeof n === "number") code = n;
        if (sig) signal = sig;
      });
      c.on("data", (d: Buffer) => cap.add("stdout", d));
      c.stderr.on("data", (d: Buffer) => cap.add("stderr", d));
      // ssh2 passes the exit status to close as well: the fallback when no exit event was seen.
      c.on("close", (n?: number | null, sig?: string) => {
        if (code === null && typeof n === "number") code = n;
        if (signal === null && sig) signal = sig;
        closed = true;
        onClose();
      });
    }),
    openMs,
    () =>
      new HostError(
        "timeout",
        `the host did not open a channel within ${+(openMs / 1000).toFixed(1)}s (the connection may be dead; it is dropped by keepalive and reopened on the next command)`,
      ),
    (late) => late.close(),
  );
  return new Promise((resolve) => {
    let timedOut = false;
    const stop = () => {
      const closeSoon = () => {
        ch.close();
        setTimeout(() => finish(), 2000).unref();
      };
      // On a dead link the kill's own channel never opens: the result comes back regardless, bounded.
      setTimeout(() => {
        ch.close();
        finish();
      }, 8000).unref();
      if (cap.pid) void killGroup(client, cap.pid).then(closeSoon);
      else {
        try {
          ch.signal("KILL");
        } catch {
          /* channel already gone */
        }
        closeSoon();
      }
    };
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          stop();
        }, timeoutMs)
      : undefined;
    const onAbort = () => stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.signal?.aborted) stop();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      cap.flush();
      resolve({
        code: timedOut ? null : code,
        signal: timedOut ? (signal ?? "KILL") : signal,
        stdout: cap.text("stdout"),
        stderr: cap.text("stderr"),
        timedOut,
        truncated: cap.truncated,
        durationMs: Date.now() - t0,
      });
    };
    onClose = finish;
    if (closed) return finish();
    if (opts.stdin !== undefined) ch.end(opts.stdin);
    else ch.end();
  });
}
