// Wall time of a 3-host rollout on the sandbox machines: canary, then a batch of 2 in parallel, against
// one host at a time (canary 1, batch 1), alternated in the same run. Needs host 0 running
// (`npm run sandbox -- up`); hosts 1 and 2 are booted for the bench when absent and stopped after it.
import { main } from "../../src/cli/main.js";
import { downHosts, upFleet } from "../../test/sandbox/fleet.js";
import { status } from "../../test/sandbox/machine.js";
import { makeFleet } from "../../test/e2e/support/fleet-repo.js";

export interface FleetBench {
  skipped: string | null;
  runs: number;
  batch2Ms: number[];
  serialMs: number[];
  ratio: number | null;
  met: boolean;
  bootSeconds: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
export const TARGET_RATIO = 0.85;

async function rollout(batch: number, port: number, bootSeconds: number): Promise<number> {
  const { hosts } = await upFleet(3);
  const f = await makeFleet(hosts, port, `    rollout: { canary: 1, batch: ${batch} }\n`, {
    fakeEnv: { FAKE_BOOT_SECONDS: String(bootSeconds) },
  });
  try {
    const t0 = performance.now();
    let out = "";
    const code = await main(["run", "--endpoint", f.repo.vars.endpoint, "--skip-preflight", "--json"], {
      out: (s) => (out += s),
      err: () => {},
      isTTY: false,
      env: {},
      cwd: f.repo.root,
    });
    const ms = performance.now() - t0;
    if (code !== 0) throw new Error(`the bench rollout failed (batch ${batch}): ${out.slice(0, 2000)}`);
    return ms;
  } finally {
    await f.cleanup();
  }
}

export async function runFleetBench(runs = 3, bootSeconds = 4): Promise<FleetBench> {
  const base: FleetBench = { skipped: null, runs, batch2Ms: [], serialMs: [], ratio: null, met: false, bootSeconds };
  if (!(await status())) return { ...base, skipped: "no sandbox host running (npm run sandbox -- up)" };
  const { booted } = await upFleet(3, (m) => process.stderr.write(`[sandbox] ${m}\n`));
  try {
    for (let i = 0; i < runs; i++) {
      // Alternate the order so a warming cache favours neither side.
      const order = i % 2 ? [1, 2] : [2, 1];
      for (const batch of order)
        (batch === 2 ? base.batch2Ms : base.serialMs).push(await rollout(batch, 8230 + i * 2 + batch, bootSeconds));
    }
  } finally {
    await downHosts(booted.filter((i) => i > 0));
  }
  const ratio = median(base.batch2Ms) / median(base.serialMs);
  return { ...base, ratio, met: ratio <= TARGET_RATIO };
}

export function renderFleetBench(b: FleetBench): string {
  if (b.skipped) return `fleet: skipped (${b.skipped})`;
  const s = (xs: number[]) =>
    `${(median(xs) / 1000).toFixed(1)} s (runs: ${xs.map((x) => (x / 1000).toFixed(1)).join(", ")})`;
  return [
    `| rollout of 3 hosts (engine boot ${b.bootSeconds} s) | wall time, median of ${b.runs} | steps |`,
    "|---|---|---|",
    `| canary 1, then batch 2 in parallel | ${s(b.batch2Ms)} | 2 |`,
    `| one host at a time (canary 1, batch 1) | ${s(b.serialMs)} | 3 |`,
    `ratio batch-2 / one-at-a-time: ${b.ratio!.toFixed(2)}x (target <= ${TARGET_RATIO}x)`,
    b.met ? "fleet: target met" : "fleet: TARGET MISSED",
  ].join("\n");
}
