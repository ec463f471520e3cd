// Time to verdict for a refused boot on the sandbox host: from the engine's exit (systemd's "Main process
// exited" for the unit, host clock) to the gate's red verdict (host clock read as runDeploy returns).
// Target: under 2 poll intervals. Needs a running sandbox host (`npm run sandbox -- up`).
import { SshHost } from "../../src/ports/host/ssh.js";
import { runDeploy } from "../../src/stages/deploy/deploy.js";
import { hostMark } from "../../src/stages/deploy/restart.js";
import { status } from "../../test/sandbox/machine.js";
import { makeSandboxRepo, removeDeployed } from "../../test/stages/deploy/sandbox-repo.js";

export interface DeployBenchRun {
  verdictAfterExitMs: number;
  class: unknown;
  polls: unknown;
}
export interface DeployBench {
  skipped: string | null;
  pollMs: number;
  runs: DeployBenchRun[];
  medianMs: number | null;
  maxMs: number | null;
  targetMs: number;
  met: boolean;
}

/** Host clock (ms) of systemd's first word that the unit's main process ended (an exit 0 logs only "Deactivated"). */
async function exitedAt(host: SshHost, service: string, cursor: string | null): Promise<number | null> {
  const argv = [
    "journalctl",
    "-o",
    "json",
    "--no-pager",
    ...(cursor ? [`--after-cursor=${cursor}`] : []),
    `UNIT=${service}`,
  ];
  const r = await host.run(argv, { timeoutMs: 30_000 });
  for (const line of r.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const rec = JSON.parse(line) as { MESSAGE?: unknown; __REALTIME_TIMESTAMP?: string };
    if (
      typeof rec.MESSAGE === "string" &&
      /Main process exited|Deactivated successfully|Failed with result/.test(rec.MESSAGE)
    )
      return Number(rec.__REALTIME_TIMESTAMP) / 1000;
  }
  return null;
}

export async function runDeployBench(
  opts: { runs?: number; pollMs?: number; port?: number } = {},
): Promise<DeployBench> {
  const pollMs = opts.pollMs ?? 2000;
  const base: DeployBench = {
    skipped: null,
    pollMs,
    runs: [],
    medianMs: null,
    maxMs: null,
    targetMs: 2 * pollMs,
    met: false,
  };
  const s = await status();
  if (!s) return { ...base, skipped: "no sandbox host running (npm run sandbox -- up)" };
  const host = await SshHost.connect({
    address: s.address,
    port: s.sshPort,
    user: s.user,
    knownHosts: s.knownHosts,
    identityFile: s.identityFile,
  });
  try {
    for (let i = 0; i < (opts.runs ?? 3); i++) {
      const name = `dg-bench-${process.pid}-${i}`;
      const repo = makeSandboxRepo({
        endpoint: name,
        container: name,
        port: opts.port ?? 7849,
        address: s.address,
        poll: `${pollMs}ms`,
        fakeEnv: { FAKE_BOOT_SECONDS: "2", FAKE_FAIL: "oom" },
      });
      try {
        const res = await runDeploy(repo.context(host), { dryRun: false, lockWaitMs: 0, owner: "bench@sandbox" });
        const verdict = await hostMark(host);
        const cursor = res.deployment?.journalCursor ?? null;
        const exit = await exitedAt(host, repo.service, cursor);
        if (res.ok || exit === null)
          throw new Error(`the refused boot was not seen as one (ok=${res.ok}, exit=${exit}): check the engine double`);
        const diag = res.findings.find((f) => f.check === "deploy.diagnosis");
        const ready = res.findings.find((f) => f.check === "deploy.ready");
        base.runs.push({
          verdictAfterExitMs: Math.round(verdict.hostNowMs - exit),
          class: diag?.data?.class,
          polls: ready?.data?.polls,
        });
      } finally {
        await removeDeployed(host, repo);
        repo.cleanup();
      }
    }
  } finally {
    await host.close();
  }
  const sorted = base.runs.map((r) => r.verdictAfterExitMs).sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)] ?? null;
  const maxMs = sorted.at(-1) ?? null;
  return { ...base, medianMs, maxMs, met: maxMs !== null && maxMs < base.targetMs };
}

export function renderDeployBench(b: DeployBench): string {
  if (b.skipped) return `deploy: skipped (${b.skipped})`;
  return [
    `| measure | deploy-gate | target |`,
    `|---|---|---|`,
    `| refused boot: engine exit → red verdict (median of ${b.runs.length}) | ${b.medianMs} ms | < ${b.targetMs} ms (2 polls of ${b.pollMs} ms) |`,
    `| worst run | ${b.maxMs} ms | < ${b.targetMs} ms |`,
    `classes: ${b.runs.map((r) => String(r.class)).join(", ")}; polls: ${b.runs.map((r) => String(r.polls)).join(", ")}`,
    b.met ? "deploy: target met" : "deploy: TARGET MISSED",
  ].join("\n");
}
