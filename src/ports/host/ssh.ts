// SshHost: the Host port over one reused ssh2 connection, a bounded number of channels at once
// (sshd's MaxSessions), keepalive, a pinned host key, and reconnect with backoff between commands.
import { randomBytes } from "node:crypto";
import type { Duplex } from "node:stream";
import type { Client } from "ssh2";
import type { SshTarget } from "../../domain/config/schema.js";
import { resolveAuth, type Auth } from "./auth.js";
import { openClient, targetName, tunnel, type ConnectOptions } from "./connect.js";
import { HostError } from "./errors.js";
import { execOnce } from "./exec.js";
import type { Host, RunOptions, RunResult } from "./host.js";
import { trace, tracing } from "../trace.js";
import { shellJoin, shellQuote } from "../../lib/shell-quote.js";
import { userSsh, type UserSsh } from "./user-ssh.js";

export { HostError } from "./errors.js";

export interface JumpOptions {
  target: SshTarget;
  privateKey?: string | Buffer;
}
export interface SshConnectOptions extends ConnectOptions {
  jump?: JumpOptions;
  maxChannels?: number;
  reconnectDelaysMs?: number[];
}

export class SshHost implements Host {
  readonly name: string;
  readonly origin?: string;
  roundTrips = 0;
  connections = 0;
  private client: Client | null = null;
  private jumpClient: Client | null = null;
  private closed = false;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly target: SshTarget;

  private constructor(
    private readonly user: UserSsh,
    private readonly auth: Auth,
    private readonly jump: { user: UserSsh; auth: Auth } | null,
    private readonly opts: SshConnectOptions,
  ) {
    this.target = user.target;
    this.name = targetName(user.target);
    const origin = [
      ...(user.alias ? [`${user.alias} in ~/.ssh/config`] : []),
      ...(user.pinFiles ? ["host key pinned by known_hosts"] : []),
    ].join("; ");
    if (origin) this.origin = origin;
  }

  /** target as deploy-gate.yml has it; the user's ~/.ssh/config, known_hosts and agent complete it. */
  static async connect(target: SshTarget, opts: SshConnectOptions = {}): Promise<SshHost> {
    const env = opts.env ?? process.env;
    const u = userSsh(target, env);
    const ju = opts.jump ? userSsh(opts.jump.target, env) : (u.jump ?? null);
    const jump = ju ? { user: ju, auth: await resolveAuth(ju, { ...opts, privateKey: opts.jump?.privateKey }) } : null;
    const host = new SshHost(u, await resolveAuth(u, opts), jump, opts);
    await host.ensureClient();
    return host;
  }

  private async open(): Promise<Client> {
    let sock;
    if (this.jump) {
      const j = this.jump;
      this.jumpClient?.end();
      this.jumpClient = await openClient(j.user.target, j.auth, { ...this.opts, pinFiles: j.user.pinFiles });
      sock = await tunnel(this.jumpClient, this.target, this.opts.timeoutMs ?? 20_000).catch((e: unknown) => {
        this.jumpClient?.end(); // a failed connect leaves no connection open behind it
        this.jumpClient = null;
        throw e;
      });
    }
    const c = await openClient(this.target, this.auth, { ...this.opts, pinFiles: this.user.pinFiles }, sock).catch(
      (e: unknown) => {
        this.jumpClient?.end(); // the target refused (its key, our key): the jump connection goes with it
        this.jumpClient = null;
        throw e;
      },
    );
    this.connections++;
    c.on("close", () => {
      if (this.client === c) this.client = null;
    });
    c.on("error", () => {
      if (this.client === c) this.client = null;
    }); // dropped: reconnect on next use
    return c;
  }

  private connecting: Promise<Client> | null = null;

  /** The live connection, or one (re)opened for it; concurrent callers share one attempt. */
  private ensureClient(): Promise<Client> {
    if (this.closed)
      return Promise.reject(new HostError("closed", `the connection to ${this.name} was closed by this program`));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.reconnect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async reconnect(): Promise<Client> {
    const delays = this.connections === 0 ? [] : (this.opts.reconnectDelaysMs ?? [250, 1000, 3000]);
    let last: unknown;
    for (let i = 0; i <= delays.length; i++) {
      try {
        this.client = await this.open();
        return this.client;
      } catch (e) {
        last = e;
        // A wrong key or host key will not fix itself: fail at once.
        if (e instanceof HostError && ["auth", "host-key-mismatch", "no-pin"].includes(e.kind)) throw e;
        if (i < delays.length) await new Promise((r) => setTimeout(r, delays[i]));
      }
    }
    throw last;
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    const max = this.opts.maxChannels ?? 8; // OpenSSH MaxSessions defaults to 10; keep headroom
    while (this.active >= max) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private exec(
    command: string,
    opts: RunOptions | undefined,
    onLine?: (l: string, s: "stdout" | "stderr") => void,
  ): Promise<RunResult> {
    return this.slot(async () => {
      const client = await this.ensureClient();
      this.roundTrips++;
      if (!tracing()) return execOnce(client, command, opts, onLine);
      const t0 = performance.now();
      const r = await execOnce(client, command, opts, onLine);
      trace(t0, `ssh ${this.name}: ${command.slice(0, 160)} -> ${r.code ?? r.signal}`);
      return r;
    });
  }

  run(argv: readonly string[], opts?: RunOptions): Promise<RunResult> {
    return this.exec(shellJoin(argv), opts);
  }

  runShell(script: string, opts?: RunOptions): Promise<RunResult> {
    return this.exec(shellJoin(["sh", "-c", script]), opts);
  }

  stream(
    argv: readonly string[],
    onLine: (line: string, stream: "stdout" | "stderr") => void,
    opts?: RunOptions,
  ): Promise<RunResult> {
    return this.exec(shellJoin(argv), opts, onLine);
  }

  async writeFile(
    path: string,
    content: string | Buffer,
    mode: number,
    opts: { timeoutMs?: number } = {},
  ): Promise<void> {
    // Temp file in the same directory, then rename: readers see the old file or the new one, never half.
    const tmp = `${path}.dg-tmp-${randomBytes(6).toString("hex")}`;
    // mv -T: onto a directory, plain mv would move the temp file inside it and report success.
    const isDir = `[ -d ${shellQuote(path)} ] && [ ! -L ${shellQuote(path)} ] && { echo ${shellQuote(`${path} is a directory on the host: make install.to name a file inside it (e.g. ${path}/NAME), or remove the directory`)} >&2; exit 21; }`;
    const script = `${isDir}; umask 077; cat > ${shellQuote(tmp)} && chmod ${mode.toString(8).padStart(4, "0")} ${shellQuote(tmp)} && mv -fT ${shellQuote(tmp)} ${shellQuote(path)} || { rc=$?; rm -f ${shellQuote(tmp)}; exit $rc; }`;
    const r = await this.runShell(script, { stdin: content, timeoutMs: opts.timeoutMs ?? 60_000 });
    if (r.code !== 0) {
      throw new HostError(
        r.timedOut ? "timeout" : "closed",
        `writing ${path} on ${this.name} failed${r.timedOut ? " (timed out)" : ` (exit ${r.code})`}: ${r.stderr.trim() || "no error output"}; check the directory exists and is writable by ${this.target.user}`,
      );
    }
  }

  /**
   * A TCP stream opened from the host to dstHost:dstPort (ssh -L without a local listener), on the same connection.
   * Bounded: the channel-open request has no timeout of its own (sshd answers it only when its connect ends).
   */
  forwardOut(dstHost: string, dstPort: number, timeoutMs = 20_000): Promise<Duplex> {
    return this.ensureClient().then(
      (client) =>
        new Promise<Duplex>((resolve, reject) => {
          this.roundTrips++;
          let expired = false;
          const timer = setTimeout(() => {
            expired = true;
            reject(
              new HostError(
                "timeout",
                `${this.name} did not open ${dstHost}:${dstPort} within ${+(timeoutMs / 1000).toFixed(1)}s`,
              ),
            );
          }, timeoutMs);
          client.forwardOut("127.0.0.1", 0, dstHost, dstPort, (err, stream) => {
            if (expired) {
              stream?.destroy();
              return;
            }
            clearTimeout(timer);
            if (err)
              reject(new HostError("unreachable", `${this.name} cannot open ${dstHost}:${dstPort}: ${err.message}`));
            else resolve(stream);
          });
        }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client?.end();
    this.jumpClient?.end();
    this.client = null;
    this.jumpClient = null;
  }

  /** Tests: drop the transport under the host as a network failure would. */
  dropConnectionForTest(): void {
    (this.client as unknown as { _sock?: { destroy(): void } } | null)?._sock?.destroy();
  }
}
