// `npm run demo` (Linux, root): the whole gate on a serve-scripts repo against the sandbox host, twice.
// 1. A good change: preflight, deploy and verify all pass (green).
// 2. A change that drops --enable-auto-tool-choice and raises memory use (a 4x longer context per request):
//    preflight names the dropped contract (red); with --skip-preflight the deploy boots, and verify catches
//    both on the host: the tool call refused with vLLM's 400 (a config gap) and the KV pool too small.
// Prints each terminal report and writes each markdown job summary to demo-out/.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SshHost } from "../src/ports/host/ssh.js";
import { makeSandboxRepo, removeDeployed, withSandboxHost } from "../test/stages/deploy/sandbox-repo.js";
import { target } from "../test/e2e/support/sandbox.js";
import { down, preconditions, status, up } from "../test/sandbox/machine.js";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(process.cwd(), "demo-out");
const CLI = join(ROOT, "dist", "cli.js");

const why = preconditions();
if (why) {
  console.error(`demo: this machine cannot host the sandbox: ${why}`);
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });
const wasUp = await status();
const s = wasUp ?? (await up((m) => console.error(`[sandbox] ${m}`)));
const host = await SshHost.connect(target(s));
const repo = makeSandboxRepo({ endpoint: "demo", container: "dg-demo", port: 7990, address: s.address, poll: "1s" });

function edit(path: string, f: (t: string) => string): void {
  const p = join(repo.root, path);
  writeFileSync(p, f(readFileSync(p, "utf8")));
}

function gate(step: string, ...args: string[]): number {
  console.log(`\n$ deploy-gate ${args.join(" ")}    # ${step}`);
  const r = spawnSync(
    process.execPath,
    [CLI, ...args, "--summary", join(OUT, `${step}.md`), "--report", join(OUT, `${step}.json`)],
    {
      cwd: repo.root,
      stdio: "inherit",
      env: { ...process.env, FORCE_COLOR: "1" },
    },
  );
  console.log(`(exit ${r.status}; job summary: ${join(OUT, `${step}.md`)})`);
  return r.status ?? 2;
}

try {
  repo.commit("demo: pin the sandbox host, declare the contracts", () => {
    edit("deploy-gate.yml", (t) =>
      withSandboxHost(t, s, {
        contractExtra: "      thinking: true\n      tools: true\n      kv: { requests: 4 }\n      restarts: 0\n",
      }),
    );
    edit("scripts/serve.sh", (t) =>
      t.replace("--max-model-len 8192", "--max-model-len 4096 --kv-cache-memory-bytes 2147483648 --max-num-seqs 4"),
    );
  });
  const good = gate("1-good-change", "run", "--endpoint", "demo");

  repo.commit("demo: longer context, tidy the tool flags", () => {
    edit("scripts/serve.sh", (t) =>
      t.replace("--max-model-len 4096", "--max-model-len 16384").replace(" --enable-auto-tool-choice", ""),
    );
  });
  const badPre = gate("2-bad-change-preflight", "run", "--endpoint", "demo");
  const badHost = gate("3-bad-change-on-the-host", "run", "--endpoint", "demo", "--skip-preflight");

  console.log(
    `\ndemo: good change exit ${good} (want 0), bad change exit ${badPre} at preflight and ${badHost} on the host (want 1 and 1)`,
  );
  console.log(`demo: job summaries and JSON reports in ${OUT}`);
  process.exitCode = good === 0 && badPre === 1 && badHost === 1 ? 0 : 1;
} finally {
  await removeDeployed(host, repo);
  await host.close();
  repo.cleanup();
  if (!wasUp) await down();
}
