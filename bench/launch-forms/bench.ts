// Preflight on a repository of 50 launch files of every form (scripts, units, quadlets, compose files, manifests,
// kustomize overlays, vLLM config files) with a history, against the manual procedure an operator follows for the
// same files in the same run: `bash -n` on each script, and `git log -p` of each file to see what changed.
import { execFileSync } from "node:child_process";
import { parseCli } from "../../src/cli/args.js";
import { runCommand } from "../../src/commands/index.js";
import { tempRepo, type TempRepo } from "../../test/helpers/repo.js";

const FLAGS = "--max-model-len 32768 --reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser hermes";

/** The i-th file of each form, with its flags (a drop is made by a later commit on a few of them). */
function forms(i: number, drop: boolean): Record<string, string> {
  const f = drop ? FLAGS.replace(" --reasoning-parser qwen3", "") : FLAGS;
  const list = JSON.stringify(f.split(" "));
  return {
    [`scripts/serve-${i}.sh`]: `#!/bin/bash\nset -euo pipefail\nMODEL=\${MODEL:-Qwen/Qwen3-8B}\nexec vllm serve "$MODEL" \\\n  --port ${8000 + i} \\\n  ${f.split(" --").join(" \\\n  --")}\n`,
    [`units/llm-${i}.service`]: `[Unit]\nDescription=llm ${i}\n\n[Service]\nExecStart=/opt/vllm/bin/vllm serve /m --port ${9000 + i} ${f}\nRestart=always\n`,
    [`quadlets/llm-${i}.container`]: `[Container]\nImage=docker.io/vllm/vllm-openai:v0.10.1\nExec=--model /m ${f}\nShmSize=16g\n\n[Service]\nRestart=always\n`,
    [`compose/compose-${i}.yaml`]: `services:\n  chat:\n    image: vllm/vllm-openai:v0.10.1\n    ipc: host\n    command: >\n      --model /m\n      ${f}\n  coder:\n    image: lmsysorg/sglang:latest\n    command: ["python3", "-m", "sglang.launch_server", "--model-path", "/m", "--port", "30000"]\n`,
    [`k8s/deploy-${i}.yaml`]: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm-${i}\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n          args: ${list}\n          resources:\n            limits:\n              nvidia.com/gpu: 1\n`,
  };
}

export interface LaunchFormsBench {
  files: number;
  commits: number;
  preflightMs: number;
  manualMs: number;
  drops: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (fn: () => unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

function build(): { repo: TempRepo; base: string; files: string[] } {
  const repo = tempRepo("dg-bench-forms-");
  let all: Record<string, string> = {};
  for (let i = 0; i < 10; i++) all = { ...all, ...forms(i, false) };
  const base = repo.commit("add 50 launch files", all);
  // a history: each form touched, then a flag dropped from three files in later commits
  for (let c = 0; c < 20; c++) repo.commit(`notes ${c}`, { [`NOTES-${c}.md`]: `change ${c}\n` });
  for (const i of [1, 4, 7]) repo.commit(`tune ${i}`, forms(i, true));
  return { repo, base, files: Object.keys(all) };
}

export async function runLaunchFormsBench(runs = 5): Promise<LaunchFormsBench> {
  const { repo, base, files } = build();
  try {
    let drops = 0;
    const opts = parseCli(["preflight", "--json", "--base", base], repo.dir);
    if (typeof opts === "string" || "help" in opts) throw new Error("preflight options did not parse");
    const pre: number[] = [];
    for (let r = 0; r < runs; r++)
      pre.push(
        await timed(async () => {
          const report = await runCommand(opts);
          drops = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status === "fail").length;
        }),
      );
    const manual: number[] = [];
    for (let r = 0; r < Math.max(3, Math.ceil(runs / 2)); r++)
      manual.push(
        await timed(() => {
          for (const f of files) {
            if (f.endsWith(".sh")) execFileSync("bash", ["-n", f], { cwd: repo.dir });
            execFileSync("git", ["log", "-p", "--oneline", `${base}..HEAD`, "--", f], { cwd: repo.dir });
          }
        }),
      );
    return { files: files.length, commits: 24, preflightMs: median(pre), manualMs: median(manual), drops };
  } finally {
    repo.cleanup();
  }
}

export function renderLaunchFormsBench(b: LaunchFormsBench): { text: string; ok: boolean } {
  // the target is the second; the manual procedure is the baseline the figure is read against
  const ok = b.preflightMs < 1000 && b.drops === 15;
  const text = [
    `| measure | deploy-gate preflight | manual: bash -n + git log -p per file | target |`,
    `|---|---|---|---|`,
    `| wall time (median), ${b.files} files, ${b.commits} commits | ${b.preflightMs.toFixed(0)} ms | ${b.manualMs.toFixed(0)} ms | < 1000 ms (ratio ${(b.preflightMs / b.manualMs).toFixed(2)}x) |`,
    `dropped --reasoning-parser reported: ${b.drops} (3 files of each of 5 forms)`,
    ok ? "launch forms: target met" : "launch forms: TARGET MISSED",
  ];
  return { text: text.join("\n"), ok };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = renderLaunchFormsBench(await runLaunchFormsBench());
  console.log(r.text);
  process.exitCode = r.ok ? 0 : 1;
}
