// verify.spec-decode needs drafts to see: a fresh engine's spec-decode counters are zero until it serves a
// request. With the thinking and tools contracts off verify sends a completion of its own first; when
// every completion was refused, the finding says engagement was not proven, not that MTP is off.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import { GitReader } from "../../../src/ports/git/batched.js";
import { Git } from "../../../src/ports/git/git.js";
import type { Host } from "../../../src/ports/host/host.js";
import type { StageContext } from "../../../src/stages/context.js";
import { runVerify } from "../../../src/stages/verify/verify.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const SPEC = '{"method":"mtp","num_speculative_tokens":2}';
const ARGV = ["vllm", "serve", "/models/q", "--served-model-name", "qwen", "--speculative-config", SPEC];
let server: Server;
let url: string;
let completions = 0;
let repo: TempRepo;
let sha: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = req.headers.authorization === "Bearer right";
    if (req.url === "/metrics") {
      res.end(
        `vllm:spec_decode_num_drafts_total{engine="0"} ${completions * 5}.0\nvllm:spec_decode_num_draft_tokens_total{engine="0"} ${completions * 10}.0\nvllm:spec_decode_num_accepted_tokens_total{engine="0"} ${completions * 7}.0\n`,
      );
      return;
    }
    if (!key) {
      res.writeHead(401);
      res.end('{"error":"Unauthorized"}');
      return;
    }
    if (req.url === "/v1/models") {
      res.end(JSON.stringify({ data: [{ id: "qwen" }] }));
      return;
    }
    if (req.url === "/v1/chat/completions") completions++;
    res.end(
      JSON.stringify({ choices: [{ message: { content: "Danube: Vienna", reasoning: "x" }, finish_reason: "stop" }] }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  repo = tempRepo();
  sha = repo.commit("script", {
    "serve.sh": `#!/bin/bash\nexec vllm serve /models/q --served-model-name qwen --speculative-config '${SPEC}'\n`,
  });
});
afterAll(async () => {
  repo.cleanup();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A host whose facts command answers with the engine's argv (the marker read from the script). */
const host: Host = {
  name: "root@gpu1:22",
  run: () =>
    Promise.resolve({
      code: 1,
      signal: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      truncated: false,
      durationMs: 1,
    }),
  runShell: (script: string) => {
    const m = /M='?([^';]+)'?;/.exec(script)![1];
    const argv = Buffer.from(`${ARGV.join("\0")}\0`).toString("base64");
    return Promise.resolve({
      code: 0,
      signal: null,
      stdout: `\n${m}:restarts\n0\n${m}:cmdline\n${argv}\n`,
      stderr: "",
      timedOut: false,
      truncated: false,
      durationMs: 1,
    });
  },
  writeFile: () => Promise.reject(new Error("unused")),
  stream: () => Promise.reject(new Error("unused")),
  close: async () => {},
};

const ctx = (): StageContext => ({
  name: "archon",
  endpoint: endpointSchema.parse({
    script: "serve.sh",
    container: "c",
    service: "c.service",
    url,
    model: "qwen",
    contracts: { thinking: false, tools: false },
  }),
  configFile: "deploy-gate.yml",
  root: repo.dir,
  reader: new GitReader(new Git(repo.dir)),
  ref: "main",
  sha,
  repoPath: (p) => p,
  host,
  progress: () => {},
  now: () => Date.now(),
});

describe("verify.spec-decode on an engine no client has used yet", () => {
  it("with thinking and tools off, verify drives a completion itself and sees the drafts", async () => {
    completions = 0;
    const fs = await runVerify(ctx(), { deployment: null, env: { DEPLOY_GATE_API_KEY: "right" } });
    // verify.liveness's one token (it drafts nothing), then the spec probe's completion
    expect(completions).toBe(2);
    expect(fs.find((f) => f.check === "verify.spec-decode")).toMatchObject({
      status: "pass",
      data: { source: "metrics" },
    });
  });
  it("every completion refused: not proven, with the refusal, never 'MTP is off'", async () => {
    completions = 0;
    const f = (await runVerify(ctx(), { deployment: null, env: {} })).find((x) => x.check === "verify.spec-decode")!;
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/not proven: no completion succeeded in this verify \(HTTP 401\)/);
    expect(f.summary).not.toMatch(/off/);
  });
});
