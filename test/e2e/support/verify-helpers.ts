// Builds what a verify e2e test needs: an engine double under a production-shaped unit, a real git repo
// whose serve script starts the same engine, and the StageContext the pipeline would hand the stage.
import { randomBytes } from "node:crypto";
import { endpointSchema, type Endpoint } from "../../../src/domain/config/schema.js";
import { Git } from "../../../src/ports/git/git.js";
import { GitReader } from "../../../src/ports/git/batched.js";
import type { Host } from "../../../src/ports/host/host.js";
import type { SshHost } from "../../../src/ports/host/ssh.js";
import type { StageContext } from "../../../src/stages/context.js";
import type { SandboxStatus } from "../../sandbox/machine.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { startUnit, unitText, waitUntil, type EngineUnit } from "./units.js";

export const GOOD_ARGS = [
  "--served-model-name",
  "qwen",
  "--max-model-len",
  "8192",
  "--reasoning-parser",
  "qwen3",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "qwen3_xml",
  "--speculative-config",
  '{"method":"mtp","num_speculative_tokens":2}',
];

export interface Case {
  /** engine args the unit on the host runs (after the model path and --port) */
  live: string[];
  /** engine args the repo's script passes; default: the same as live */
  repo?: string[];
  env?: Record<string, string>;
  /** container env the repo's script passes with -e; default: env */
  repoEnv?: Record<string, string>;
  contracts?: Record<string, unknown>;
  unitEnv?: Record<string, string>;
  restart?: string;
}

export function scriptText(u: EngineUnit, image: string, args: readonly string[], env: Record<string, string>): string {
  const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const envLines = Object.entries(env).map(([k, v]) => `  -e ${k}=${q(v)} \\`);
  const argLines: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      argLines.push(`  ${args[i]} ${q(next)} \\`);
      i++;
    } else argLines.push(`  ${args[i]} \\`);
  }
  return [
    "#!/bin/bash",
    "set -euo pipefail",
    `podman rm -f ${u.container} >/dev/null 2>&1 || true`,
    `exec podman run --rm --name ${u.container} --log-driver journald -p ${u.port}:${u.port} \\`,
    ...envLines,
    `  ${image} /models/qwen \\`,
    `  --port ${u.port} \\`,
    ...argLines,
    "",
  ]
    .join("\n")
    .replace(/ \\\n$/, "\n");
}

export interface Booted {
  u: EngineUnit;
  repo: TempRepo;
  sha: string;
  endpoint: Endpoint;
  name: string;
  startedAtHostMs: number;
}

export async function hostNowMs(host: Host): Promise<number> {
  return Number((await host.run(["date", "+%s%3N"])).stdout.trim());
}

export async function bootCase(host: Host, s: SandboxStatus, port: number, c: Case): Promise<Booted> {
  const n = `dg-verify-${randomBytes(4).toString("hex")}`; // fresh() of sandbox.ts, without vitest (the bench imports this)
  const u: EngineUnit = { unit: `${n}.service`, container: n, port };
  const env = c.env ?? {};
  const repo = tempRepo();
  const sha = repo.commit("serve script", {
    "scripts/serve.sh": scriptText(u, s.image, c.repo ?? c.live, c.repoEnv ?? env),
  });
  const endpoint = endpointSchema.parse({
    script: "scripts/serve.sh",
    service: u.unit,
    container: u.container,
    url: `http://${s.address}:${port}`,
    model: "qwen",
    contracts: c.contracts ?? {
      flags: ["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"],
      env: ["VLLM_LOGGING_LEVEL"],
      kv: { requests: 4 },
      restarts: 0,
      thinking: true,
      tools: true,
    },
  });
  const startedAtHostMs = await hostNowMs(host);
  await startUnit(
    host,
    u,
    unitText(u, s.image, c.live, { FAKE_BOOT_SECONDS: "1", ...env, ...c.unitEnv }, c.restart ?? "always"),
  );
  return { u, repo, sha, endpoint, name: n, startedAtHostMs };
}

export async function waitReady(b: Booted): Promise<void> {
  await waitUntil(`${b.u.unit} health`, 60_000, async () =>
    (await fetch(`${b.endpoint.url}/health`, { signal: AbortSignal.timeout(2000) })).status === 200 ? true : null,
  );
}

export function contextFor(host: SshHost, b: Booted, ref = "main"): StageContext {
  return {
    name: b.name,
    endpoint: b.endpoint,
    configFile: `${b.repo.dir}/deploy-gate.yml`,
    root: b.repo.dir,
    reader: new GitReader(new Git(b.repo.dir)),
    ref,
    sha: b.sha,
    repoPath: (p) => p,
    host,
    progress: () => {},
    now: () => Date.now(),
  };
}
