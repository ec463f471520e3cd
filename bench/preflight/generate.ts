// A generated serve-scripts repository: N commits (git fast-import), 4 serve scripts with 3 contract
// flags each (12), of which 3 are dropped at different depths. Scripts change every ~20 commits.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ENDPOINTS = ["archon", "dragoon", "zealot", "probe"] as const;
const CONTRACTS: Record<string, string[]> = {
  archon: ["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"],
  dragoon: ["--reasoning-parser deepseek_r1", "--served-model-name dragoon", "--kv-cache-memory-bytes 2147483648"],
  zealot: ["--enable-prefix-caching", "--max-model-len 65536", "--served-model-name zealot"],
  probe: ["--trust-remote-code", "--max-num-seqs 4", "--served-model-name probe"],
};
/** endpoint -> [contract index, commit number at which it is removed] */
export const DROPS: Record<string, [number, number]> = { archon: [0, 0.998], dragoon: [2, 0.6], zealot: [0, 0.1] };

function script(ep: string, rev: number, dropped: Set<string>): string {
  const flags = CONTRACTS[ep]!.filter((f) => !dropped.has(f));
  return [
    "#!/usr/bin/env bash",
    `# serve-${ep} (revision ${rev})`,
    "set -euo pipefail",
    `podman rm -f frank-${ep} >/dev/null 2>&1 || true`,
    "mkdir -p /srv/cache",
    `exec podman run --rm --name frank-${ep} --ipc=host --ulimit memlock=-1:-1 \\`,
    "  --device /dev/kfd --device /dev/dri -v /srv/cache:/root/.cache \\",
    "  docker.io/vllm/vllm-openai:v0.28.0 /models \\",
    `  --port ${7770 + ENDPOINTS.indexOf(ep as never)} \\`,
    `  --gpu-memory-utilization 0.${90 + (rev % 8)} \\`,
    ...flags.map((f) => `  ${f} \\`),
    `  --max-num-batched-tokens ${2048 * (1 + (rev % 4))}`,
    "",
  ].join("\n");
}

export function contractsOf(ep: string): string[] {
  return CONTRACTS[ep]!;
}

export function generateRepo(commits: number): string {
  const dir = mkdtempSync(join(tmpdir(), "dg-bench-repo-"));
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  const chunks: string[] = [];
  const dropped: Record<string, Set<string>> = Object.fromEntries(ENDPOINTS.map((e) => [e, new Set<string>()]));
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const t0 = 1_760_000_000;
  for (let i = 1; i <= commits; i++) {
    const mods: [string, string][] = [];
    if (i === 1) for (const ep of ENDPOINTS) mods.push([`scripts/serve-${ep}.sh`, script(ep, 0, dropped[ep]!)]);
    for (const [ep, [idx, at]] of Object.entries(DROPS)) {
      if (i === Math.round(at * commits)) {
        dropped[ep]!.add(CONTRACTS[ep]![idx]!);
        mods.push([`scripts/serve-${ep}.sh`, script(ep, i, dropped[ep]!)]);
      }
    }
    if (i > 1 && i % 20 === 0) {
      const ep = ENDPOINTS[(i / 20) % ENDPOINTS.length]!;
      mods.push([`scripts/serve-${ep}.sh`, script(ep, i, dropped[ep]!)]);
    }
    mods.push([`notes/log-${i % 50}.md`, `entry ${i}\n`]);
    chunks.push(
      `commit refs/heads/main\ncommitter bench <bench@example.invalid> ${t0 + i * 60} +0000\n${data(`change ${i}`)}`,
    );
    for (const [p, c] of mods) chunks.push(`M 100755 inline ${p}\n${data(c)}`);
    chunks.push("\n");
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: chunks.join(""), maxBuffer: 1 << 30 });
  execFileSync("git", ["checkout", "-q", "-f", "main"], { cwd: dir });
  const cfg = ["version: 1", "endpoints:"];
  for (const ep of ENDPOINTS) {
    cfg.push(
      `  ${ep}:`,
      `    script: scripts/serve-${ep}.sh`,
      "    contracts:",
      `      flags: ${JSON.stringify(CONTRACTS[ep])}`,
    );
  }
  writeFileSync(join(dir, "deploy-gate.yml"), cfg.join("\n") + "\n");
  execFileSync("git", ["add", "deploy-gate.yml"], { cwd: dir });
  execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@example.invalid", "commit", "-qm", "config"], {
    cwd: dir,
  });
  return dir;
}
