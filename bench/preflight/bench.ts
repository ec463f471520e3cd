// Preflight vs the seed's manual procedure (one `git log --all -S<flag>` per contract), same repo, same run.
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { contractsOf, ENDPOINTS, generateRepo } from "./generate.js";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timed(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export interface PreflightBench {
  commits: number;
  contracts: number;
  dropped: number;
  preflightMs: number;
  manualMs: number;
  ratio: number;
  found: string[];
}

export function runPreflightBench(commits = 5000, runs = 5): PreflightBench {
  const dir = generateRepo(commits);
  try {
    let found: string[] = [];
    const pre = Array.from({ length: runs }, () =>
      timed(() => {
        const r = spawnSync(process.execPath, [CLI, "preflight", "--json"], { cwd: dir, encoding: "utf8" });
        const report = JSON.parse(r.stdout) as {
          findings: { check: string; status: string; data?: { flag?: string; droppedIn?: string } }[];
        };
        found = report.findings
          .filter((f) => f.check === "preflight.contracts" && f.status === "fail")
          .map((f) => `${f.data?.flag}@${f.data?.droppedIn?.slice(0, 8)}`);
      }),
    );
    const flags = ENDPOINTS.flatMap((e) => contractsOf(e).map((c) => c.split(" ")[0]!));
    const manual = Array.from({ length: Math.max(3, Math.ceil(runs / 2)) }, () =>
      timed(() => {
        for (const f of flags) execFileSync("git", ["log", "--all", "--oneline", `-S${f}`], { cwd: dir });
      }),
    );
    const preflightMs = median(pre);
    const manualMs = median(manual);
    return {
      commits,
      contracts: flags.length,
      dropped: found.length,
      preflightMs,
      manualMs,
      ratio: preflightMs / manualMs,
      found,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
