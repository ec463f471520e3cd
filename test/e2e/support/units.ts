// A systemd unit of the production shape (reference "A unit that behaves like production") that runs
// the engine double's image; each test gets fresh unit and container names and its own port.
import type { Host } from "../../../src/ports/host/host.js";
import { shellJoin } from "../../../src/lib/shell-quote.js";

export interface EngineUnit {
  unit: string;
  container: string;
  port: number;
}

export function unitText(
  u: EngineUnit,
  image: string,
  engineArgs: readonly string[],
  env: Record<string, string> = {},
  restart = "always",
): string {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const run = shellJoin([
    "/usr/bin/podman",
    "run",
    "--rm",
    "--name",
    u.container,
    "--log-driver",
    "journald",
    "-p",
    `${u.port}:${u.port}`,
    ...envArgs,
    image,
    "/models/qwen",
    "--port",
    String(u.port),
    ...engineArgs,
  ]);
  return [
    "[Unit]",
    `Description=engine double ${u.container}`,
    "StartLimitIntervalSec=0",
    "[Service]",
    `ExecStartPre=-/usr/bin/podman rm -f ${u.container}`,
    `ExecStart=${run}`,
    `ExecStop=/usr/bin/podman stop -t 5 ${u.container}`,
    `Restart=${restart}`,
    "RestartSec=1",
    "",
  ].join("\n");
}

export async function startUnit(host: Host, u: EngineUnit, text: string): Promise<void> {
  await host.writeFile(`/etc/systemd/system/${u.unit}`, text, 0o644);
  const r = await host.runShell(`systemctl daemon-reload && systemctl start ${u.unit}`, { timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`starting ${u.unit} failed: ${r.stderr}`);
}

export async function removeUnit(host: Host, u: EngineUnit): Promise<void> {
  await host.runShell(
    `systemctl stop ${u.unit}; podman rm -f ${u.container} >/dev/null 2>&1; rm -f /etc/systemd/system/${u.unit}; systemctl daemon-reload; systemctl reset-failed ${u.unit} 2>/dev/null; true`,
    { timeoutMs: 30_000 },
  );
}

/** Journal records of the unit as `journalctl -o json` gives them, MESSAGE decoded when it is a byte array. */
export async function journal(host: Host, u: EngineUnit): Promise<Record<string, unknown>[]> {
  const r = await host.run(["journalctl", "-u", u.unit, "-o", "json", "--no-pager"], { timeoutMs: 20_000 });
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      if (Array.isArray(o.MESSAGE)) o.MESSAGE = Buffer.from(o.MESSAGE as number[]).toString("utf8");
      return o;
    });
}

export async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
