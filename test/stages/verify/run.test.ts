// runVerify's orchestration without a sandbox: every check id comes back, in order, even when the host
// cannot be reached, each failure with a fix; the HTTP checks still run against a real loopback server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import { GitReader } from "../../../src/ports/git/batched.js";
import { Git } from "../../../src/ports/git/git.js";
import type { Host } from "../../../src/ports/host/host.js";
import type { StageContext } from "../../../src/stages/context.js";
import { runVerify, VERIFY_CHECKS } from "../../../src/stages/verify/verify.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

let server: Server;
let url: string;
let repo: TempRepo;
let sha: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url === "/v1/models") res.end(JSON.stringify({ data: [{ id: "qwen" }] }));
    else
      res.end(
        JSON.stringify({
          choices: [{ message: { content: "<think>x</think>42", reasoning: null }, finish_reason: "stop" }],
        }),
      );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  repo = tempRepo();
  sha = repo.commit("script", {
    "serve.sh": "#!/bin/bash\nexec vllm serve /models --port 7770 --reasoning-parser qwen3\n",
  });
});
afterAll(async () => {
  repo.cleanup();
  await new Promise<void>((r) => server.close(() => r()));
});

const downHost: Host = {
  name: "root@gpu1:22",
  run: () => Promise.reject(new Error("SSH connection to root@gpu1:22 closed")),
  runShell: () => Promise.reject(new Error("SSH connection to root@gpu1:22 closed")),
  writeFile: () => Promise.reject(new Error("unused")),
  stream: () => Promise.reject(new Error("unused")),
  close: async () => {},
};

function ctx(endpoint: Record<string, unknown>): StageContext {
  return {
    name: "archon",
    endpoint: endpointSchema.parse({ script: "serve.sh", ...endpoint }),
    configFile: "deploy-gate.yml",
    root: repo.dir,
    reader: new GitReader(new Git(repo.dir)),
    ref: "main",
    sha,
    repoPath: (p) => p,
    host: downHost,
    progress: () => {},
    now: () => Date.now(),
  };
}

describe("runVerify", () => {
  it("a host that cannot be reached fails the host checks with a fix and still runs the HTTP checks", async () => {
    const fs = await runVerify(
      ctx({ container: "c", service: "c.service", url, model: "qwen", contracts: { thinking: true, tools: false } }),
      { deployment: null },
    );
    expect(fs.map((f) => f.check)).toEqual([...VERIFY_CHECKS]);
    const by = Object.fromEntries(fs.map((f) => [f.check, f]));
    for (const c of [
      "verify.restarts",
      "verify.container",
      "verify.plan",
      "verify.kv-capacity",
      "verify.argv",
      "verify.env",
      "verify.spec-decode",
    ]) {
      expect(by[c]).toMatchObject({
        status: "fail",
        summary: expect.stringMatching(/no host facts: SSH connection to root@gpu1:22 closed/),
        fix: expect.stringMatching(/check SSH/),
      });
    }
    expect(by["verify.models"]!.status).toBe("pass");
    expect(by["verify.thinking"]).toMatchObject({ status: "fail", data: { thinkTagInContent: true } });
    expect(by["verify.tools"]!.status).toBe("skip");
    expect(fs.filter((f) => f.status === "fail").every((f) => typeof f.fix === "string" && f.fix.length > 0)).toBe(
      true,
    );
  });

  it("a peer that cannot be reached: the runner asks instead, and the evidence says why", async () => {
    const fs = await runVerify(ctx({ container: "c", url, model: "qwen", peer: { address: "10.0.0.9", user: "ci" } }), {
      deployment: null,
      connectPeer: () => Promise.reject(new Error("Timed out while waiting for handshake")),
    });
    const models = fs.find((f) => f.check === "verify.models")!;
    expect(models.status).toBe("pass");
    expect(models.summary).toMatch(/via runner/);
    expect(models.evidence).toContain("peer 10.0.0.9: Timed out while waiting for handshake");
  });

  it("without a container name: verify.container fails with what to add, the rest skip", async () => {
    const fs = await runVerify(ctx({}), { deployment: null });
    expect(fs.map((f) => `${f.check}:${f.status}`)).toEqual(
      VERIFY_CHECKS.map((c) => `${c}:${c === "verify.container" ? "fail" : "skip"}`),
    );
    expect(fs[1]!.fix).toMatch(/container: NAME/);
  });
});
