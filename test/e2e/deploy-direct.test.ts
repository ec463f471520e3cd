// An engine the unit runs itself, without a container (`ExecStart=… vllm serve …`), on the sandbox host:
// systemd starts the double as `/app/vllm serve MODEL …` (a script run by node, as a venv's bin/vllm is run
// by python) in its root file system (RootDirectory=),
// so the unit's main process is the engine, its lines are the unit's own, and no podman is involved.
// deploy waits for the unit's new run (its InvocationID, started after the deploy began); verify reads
// that run, the engine process's argv and environ from /proc, and its journal by invocation.
import { describe, expect, inject, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy } from "../../src/stages/deploy/deploy.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import { logsRequest, printBoot } from "../../src/commands/logs/logs.js";
import type { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, sandboxSession } from "./support/sandbox.js";

let nextPort = 8260; // this file's port range: 8260-8269
const OWNER = "e2e@sandbox (local)";
const FLAGS = "--reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser qwen3_xml";

/** `wrapped`: a shell that runs the engine as its child (no exec), so the unit's main process is not the engine. */
function unitText(name: string, port: number, env: string, wrapped = false): string {
  const engine = `/app/vllm serve /models/qwen --host 0.0.0.0 --port ${port} --served-model-name qwen --max-model-len 8192 ${FLAGS}`;
  return [
    "[Unit]",
    `Description=engine double ${name} without a container (deploy-gate e2e)`,
    "StartLimitIntervalSec=120",
    "StartLimitBurst=100",
    "",
    "[Service]",
    "Type=simple",
    // the double's root (node and the bundle): the unit runs the engine's own process, no container
    "RootDirectory=/var/lib/engine/rootfs",
    "MountAPIVFS=yes",
    `Environment=${env}`,
    `ExecStart=${wrapped ? `/bin/sh -c '${engine}; exit $$?'` : engine}`,
    "Restart=always",
    "RestartSec=1",
    "TimeoutStopSec=20",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
}

function configText(endpoint: string, service: string, url: string): string {
  return [
    "version: 1",
    "endpoints:",
    `  ${endpoint}:`,
    "    unit: deploy/engine.service",
    `    service: ${service}`,
    "    install:",
    `      - { from: deploy/engine.service, to: /etc/systemd/system/${service} }`,
    `    url: ${url}`,
    "    model: qwen",
    "    boot: { timeout: 90s, poll: 2s }",
    "    lock: { staleAfter: 1h }",
    "    contracts:",
    '      flags: ["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"]',
    "      thinking: true",
    "      tools: true",
    "",
  ].join("\n");
}

describe("an engine started straight from ExecStart= (no container) on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos = sandboxSession((h) => (host = h));
  const endpoint = (env: string, wrapped = false) => {
    const name = fresh("dg-direct");
    const port = nextPort++;
    const r = makeSandboxRepo({ endpoint: name, container: name, port, address: s!.address });
    repos.push(r);
    r.commit("run the engine from the unit, no container", (root) => {
      writeFileSync(join(root, "deploy/engine.service"), unitText(name, port, env, wrapped));
      writeFileSync(join(root, "deploy-gate.yml"), configText(name, r.service, `http://${s!.address}:${port}`));
    });
    return r;
  };

  it("deploys to ready on the unit's new run, and verify reads that run, its argv (the engine is the shell's child) and its plan", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = endpoint("FAKE_BOOT_SECONDS=2", true);
    const lines: string[] = [];
    const res = await runDeploy(
      r.context(host, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER },
    );
    expect(
      res.findings.filter((f) => f.status === "fail"),
      JSON.stringify(res.findings.map((f) => [f.check, f.status, f.summary])),
    ).toEqual([]);
    const ready = res.findings.find((f) => f.check === "deploy.ready")!;
    expect(ready.summary).toMatch(
      /: the unit's run [0-9a-f]{12} \(started after the deploy began\), readiness marker seen/,
    );
    // the run deploy saw is the unit's InvocationID
    const inv = (await host.run(["systemctl", "show", "-p", "InvocationID", "--value", "--", r.service])).stdout.trim();
    expect(res.deployment?.containerId).toBe(inv);
    expect(lines.some((l) => / · unit run [0-9a-f]{6} started \d+s ago/.test(l))).toBe(true);

    const v = await runVerify(r.context(host), { deployment: res.deployment });
    const by = (id: string) => v.find((f) => f.check === id)!;
    expect(by("verify.container"), JSON.stringify(by("verify.container"))).toMatchObject({
      status: "pass",
      data: { id: inv, unitRun: true },
    });
    expect(by("verify.argv").status, JSON.stringify(by("verify.argv"))).toBe("pass");
    // the unit's main process is the shell: the argv verify read is its engine child's, found in the unit's cgroup
    const main = (await host.run(["systemctl", "show", "-p", "MainPID", "--value", "--", r.service])).stdout.trim();
    expect((await host.run(["cat", `/proc/${main}/cmdline`])).stdout.split("\0")[0]).toBe("/bin/sh");
    expect(by("verify.argv").summary).toBe(
      "live argv carries all 3 contract flag(s) and matches deploy/engine.service at main",
    );
    expect(by("verify.plan")).toMatchObject({ status: "pass", summary: expect.stringMatching(/KV tokens/) });
    expect(by("verify.restarts").status).toBe("pass");
    expect(by("verify.thinking").status, JSON.stringify(by("verify.thinking"))).toBe("pass");
    expect(by("verify.tools").status, JSON.stringify(by("verify.tools"))).toBe("pass");
    expect(
      v.filter((f) => f.status === "fail"),
      JSON.stringify(v.filter((f) => f.status === "fail")),
    ).toEqual([]);

    // deploy-gate logs: the current boot of the unit, its engine's own lines and its diagnosis
    let out = "";
    let err = "";
    const code = await printBoot(host, logsRequest({ boot: "current", json: true }, r.vars.endpoint, r.service, null), {
      out: (t) => (out += t),
      err: (t) => (err += t),
      colour: false,
    });
    expect(code, err).toBe(0);
    const j = JSON.parse(out) as { diagnosis: { class: string }; lines: { text: string }[] };
    expect(j.diagnosis.class).toBe("ready");
    const texts = j.lines.map((l) => l.text);
    expect(texts.filter((t) => t.includes("Application startup complete.")).length).toBe(1);
    expect(texts.some((t) => /GPU KV cache size: [\d,]+ tokens/.test(t))).toBe(true);
  });

  it("an OOM boot is diagnosed from the unit's own lines, fast, with the shortfall", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = endpoint('"FAKE_BOOT_SECONDS=2" "FAKE_FAIL=oom" "FAKE_OOM_TRIED_GIB=4" "FAKE_OOM_FREE_GIB=1.5"');
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.ok).toBe(false);
    const d = res.findings.find((f) => f.check === "deploy.diagnosis")!;
    expect(d.data, JSON.stringify(d)).toMatchObject({
      class: "oom",
      oom: { triedGiB: 4, freeGiB: 1.5, shortfallGiB: 2.5 },
    });
    expect(d.data?.decisive).toMatch(/CUDA out of memory\. Tried to allocate 4\.00 GiB/);
    expect(res.findings.find((f) => f.check === "deploy.ready")?.data?.failure).not.toBe("timeout");
  });
});
