// The engines next to vLLM, deployed on the sandbox host by the double playing them. llama.cpp's
// llama-server: ready at its listening line (it answers 503 until its model loaded), verify reads its KV
// plan (n_ctx) and argv, a GGUF the container cannot open is named. SGLang: verify reads its pool and
// context_len through the host-side journal filter, and a --mem-fraction-static that leaves the weights
// no pool is diagnosed in SGLang's terms.
import { describe, expect, inject, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy } from "../../src/stages/deploy/deploy.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import type { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, sandboxSession } from "./support/sandbox.js";

let nextPort = 8240; // this file's port range: 8240-8249
const OWNER = "e2e@sandbox (local)";

function llamaScript(container: string, port: number, models: string, model: string): string {
  return [
    "#!/bin/bash",
    "# llama-server in a container, as llama.cpp's server images run it: the GGUF mounted read-only",
    "set -euo pipefail",
    `CONTAINER="${container}"`,
    'podman rm -f "$CONTAINER" >/dev/null 2>&1 || true',
    `exec podman run --rm --name "$CONTAINER" --log-driver journald -p "${port}:8080" -e FAKE_BOOT_SECONDS=2 \\`,
    `  -v "${models}:/models:ro" \\`,
    `  localhost/engine-double llama-server -m /models/${model} -c 8192 -np 2 --host 0.0.0.0 --port 8080 -a qwen --jinja`,
    "",
  ].join("\n");
}

function sglangScript(container: string, port: number, fraction: string): string {
  return [
    "#!/bin/bash",
    "set -euo pipefail",
    `CONTAINER="${container}"`,
    'podman rm -f "$CONTAINER" >/dev/null 2>&1 || true',
    `exec podman run --rm --name "$CONTAINER" --log-driver journald -p "${port}:30000" -e FAKE_BOOT_SECONDS=2 \\`,
    "  localhost/engine-double python3 -m sglang.launch_server --model-path /models/qwen --served-model-name qwen \\",
    `  --host 0.0.0.0 --port 30000 --context-length 8192 --mem-fraction-static ${fraction}`,
    "",
  ].join("\n");
}

describe("engines next to vLLM on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos = sandboxSession((h) => (host = h));
  /** A fresh endpoint (its name, host port and repo), removed from the host after the block. */
  const endpoint = (prefix: string) => {
    const name = fresh(prefix);
    const port = nextPort++;
    const r = makeSandboxRepo({ endpoint: name, container: name, port, address: s!.address });
    repos.push(r);
    return { name, port, r };
  };

  it("llama.cpp: deploys to ready at its listening line, verify reads n_ctx and the argv, and a GGUF it cannot open is named", async (ctx) => {
    sandboxOrSkip(ctx);
    const { name, port, r } = endpoint("dg-llama");
    const models = `/root/dg-e2e/${name}/models`;
    expect(
      (await host.runShell(`mkdir -p ${models} && printf 'GGUF\\003\\000\\000\\000' > ${models}/q.gguf`)).code,
    ).toBe(0);
    r.commit("llama-server", (root) => {
      writeFileSync(join(root, "scripts/serve.sh"), llamaScript(name, port, models, "q.gguf"));
      const cfg = join(root, "deploy-gate.yml");
      writeFileSync(cfg, readFileSync(cfg, "utf8").replace(/flags: \[.*\]/, 'flags: ["--ctx-size 8192", "--jinja"]'));
    });
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(
      res.findings.filter((f) => f.status === "fail"),
      JSON.stringify(res.findings),
    ).toEqual([]);
    const ready = res.findings.find((f) => f.check === "deploy.ready")!;
    expect(ready.status).toBe("pass");
    // It listened from the start (`HTTP server is listening, hostname:` before the model): the line that
    // counted is the one after the model loaded. Which poll saw which boot phase is timing; this is not.
    expect(ready.data?.marker).toMatch(/^main: server is listening on http:\/\//);

    const v = await runVerify(r.context(host), { deployment: res.deployment });
    const by = (id: string) => v.find((f) => f.check === id)!;
    expect(by("verify.plan")).toMatchObject({ status: "pass", summary: expect.stringContaining("8,192 KV tokens") });
    expect(by("verify.kv-capacity")).toMatchObject({
      status: "pass",
      summary: expect.stringContaining("8,192 KV tokens >= 1 request(s) x 4,096"),
    });
    expect(by("verify.argv").status, JSON.stringify(by("verify.argv"))).toBe("pass");
    expect(by("verify.container").status).toBe("pass");

    r.commit("point at a GGUF that is not there", (root) =>
      writeFileSync(join(root, "scripts/serve.sh"), llamaScript(name, port, models, "qwen3-8b-q8_0.gguf")),
    );
    const bad = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(bad.ok).toBe(false);
    const d = bad.findings.find((f) => f.check === "deploy.diagnosis")!;
    expect(d.data).toMatchObject({
      class: "engine-init-failed",
      decisive: "gguf_init_from_file: failed to open GGUF file '/models/qwen3-8b-q8_0.gguf'",
    });
    expect(d.fix).toContain("-v mount");
  });

  it("SGLang: verify reads its KV pool and context_len; a fraction that leaves no pool is kv-insufficient with SGLang's fix", async (ctx) => {
    sandboxOrSkip(ctx);
    const { name, port, r } = endpoint("dg-sglang");
    r.commit("sglang", (root) => {
      writeFileSync(join(root, "scripts/serve.sh"), sglangScript(name, port, "0.8"));
      const cfg = join(root, "deploy-gate.yml");
      writeFileSync(cfg, readFileSync(cfg, "utf8").replace(/flags: \[.*\]/, 'flags: ["--context-length 8192"]'));
    });
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(
      res.findings.filter((f) => f.status === "fail"),
      JSON.stringify(res.findings),
    ).toEqual([]);
    const v = await runVerify(r.context(host), { deployment: res.deployment });
    const by = (id: string) => v.find((f) => f.check === id)!;
    expect(by("verify.plan"), JSON.stringify(by("verify.plan"))).toMatchObject({ status: "pass" });
    expect(by("verify.kv-capacity").summary).toMatch(/^\d[\d,]* KV tokens >= 1 request\(s\) x 8,192 max-model-len/);
    expect(by("verify.argv").status, JSON.stringify(by("verify.argv"))).toBe("pass");

    r.commit("squeeze the fraction", (root) =>
      writeFileSync(join(root, "scripts/serve.sh"), sglangScript(name, port, "0.4")),
    );
    const bad = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(bad.ok).toBe(false);
    const d = bad.findings.find((f) => f.check === "deploy.diagnosis")!;
    expect(d.data).toMatchObject({
      class: "kv-insufficient",
      decisive: "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
    });
    expect(d.fix).toMatch(/^Raise --mem-fraction-static/);
  });
});
