// verify.liveness over real HTTP against the engine double on loopback: a one-token completion within a
// deadline; a green /health over completions that hang is its own class (wedged), never a pass; and verify
// does not wait out the other probes' timeouts on a wedged engine.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import type { GitReader } from "../../../src/ports/git/batched.js";
import { checkLiveness, probeLiveness } from "../../../src/stages/verify/liveness.js";
import { runVerify } from "../../../src/stages/verify/verify.js";
import { FULL_ARGS, serveDouble } from "../../sandbox/engine/loopback.js";
import { liteHandler } from "../../sandbox/engine/lite-server.js";
import { sglangLite, sglangPlan } from "../../sandbox/engine/sglang.js";

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function liveness(url: string, deadlineMs: number) {
  const a = await probeLiveness(runnerRoute(url, {}), "qwen", deadlineMs);
  return checkLiveness(a, url, "runner", { model: "qwen" });
}

describe("verify.liveness", () => {
  it("passes a real one-token completion, with its time", async () => {
    const d = await serveDouble();
    closers.push(d.close);
    const f = await liveness(d.url, 20_000);
    expect(f.status, JSON.stringify(f)).toBe("pass");
    expect(f.summary).toMatch(/^a one-token completion answered in \d+ ms \(\/health 200\)$/);
    expect(f.data).toMatchObject({ class: "live", completionTokens: 1 });
  });

  it("fails a wedged engine (/health 200, the completion never finishes) as its own class", async () => {
    const d = await serveDouble(FULL_ARGS, { FAKE_BREAK: "wedged" });
    closers.push(d.close);
    expect((await fetch(`${d.url}/health`)).status).toBe(200);
    const f = await liveness(d.url, 500);
    expect(f.status).toBe("fail");
    expect(f.data).toMatchObject({ class: "wedged", healthStatus: 200 });
    expect(f.summary).toMatch(/did not finish within 500 ms while \/health answers 200: the engine is wedged/);
    expect(f.fix).toMatch(/restart/);
  });

  it("an engine whose /health fails too is down, not wedged", async () => {
    const server: Server = createServer((req, res) => {
      if (req.url === "/health") {
        res.writeHead(503);
        res.end();
      }
      // completions: never answered
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const f = await liveness(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 500);
    expect(f.status).toBe("fail");
    expect(f.data).toMatchObject({ class: "down", healthStatus: 503 });
  });

  it("a refused completion (unknown model) is not checked, with what to change", async () => {
    const d = await serveDouble();
    closers.push(d.close);
    const a = await probeLiveness(runnerRoute(d.url, {}), "llama", 20_000);
    const f = checkLiveness(a, d.url, "runner", { model: "llama" });
    expect(f.status).toBe("fail");
    expect(f.data).toMatchObject({ class: "refused", status: 404 });
    expect(f.fix).toMatch(/--served-model-name llama/);
  });
});

describe("runVerify on a wedged engine", () => {
  it("fails verify.liveness as wedged and sends no other completion (they would hang to their timeouts)", async () => {
    const d = await serveDouble(FULL_ARGS, { FAKE_BREAK: "wedged" });
    closers.push(d.close);
    const endpoint = endpointSchema.parse({
      script: "serve.sh",
      container: "c",
      url: d.url,
      model: "qwen",
      contracts: { thinking: true, tools: true, decode: { minTokPerS: 10 } },
    });
    const host = {
      name: "root@gpu1:22",
      run: () => Promise.reject(new Error("SSH down")),
      runShell: () => Promise.reject(new Error("SSH down")),
      writeFile: () => Promise.reject(new Error("unused")),
      stream: () => Promise.reject(new Error("unused")),
      close: async () => {},
    };
    const fs = await runVerify(
      {
        name: "e",
        endpoint,
        configFile: "deploy-gate.yml",
        root: "/nonexistent",
        reader: { show: () => Promise.reject(new Error("no repo")) } as unknown as GitReader,
        ref: "main",
        sha: "0".repeat(40),
        repoPath: (p: string) => p,
        host,
        progress: () => {},
        now: () => Date.now(),
      },
      // the other probes' own timeouts are far past the test's: had they been sent, it would time out
      { deployment: null, timeouts: { livenessMs: 500, chatMs: 600_000, decodeMs: 600_000 } },
    );
    const by = Object.fromEntries(fs.map((f) => [f.check, f]));
    expect(by["verify.models"]!.status).toBe("pass");
    expect(by["verify.liveness"]!.data).toMatchObject({ class: "wedged" });
    for (const c of ["verify.thinking", "verify.tools", "verify.decode"])
      expect(by[c]!.summary, c).toMatch(/not (checked|measured): the engine did not finish a one-token completion/);
  });
});

describe("verify.liveness on SGLang", () => {
  // sgl-project/sglang python/sglang/srt/entrypoints/http_server.py at 0025436eab0556737d615b36a4dd3e1e26e82f3d:
  // /health is health_generate: a one-token generation, a 1 s sleep, 200 with no body once the scheduler
  // answered, else 503 after SGLANG_HEALTH_CHECK_TIMEOUT (default 20 s)
  async function sglang(env: Record<string, string>, wedged: boolean): Promise<string> {
    const plan = sglangPlan(["--model-path", "/models/qwen", "--served-model-name", "qwen"], env);
    const server = createServer(liteHandler(sglangLite(plan), () => true, wedged));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("its /health takes its 1 s generation and answers 200 with no body; a live engine passes", async () => {
    const url = await sglang({}, false);
    const t0 = performance.now();
    const h = await fetch(`${url}/health`);
    expect(h.status).toBe(200);
    expect(await h.text()).toBe("");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(990);
    expect((await liveness(url, 20_000)).status).toBe("pass");
  });

  it("a wedged SGLang says so on its own /health (503 after its timeout), read within the deadline: down, never a pass", async () => {
    const url = await sglang({ SGLANG_HEALTH_CHECK_TIMEOUT: "1" }, true);
    const f = await liveness(url, 3000);
    expect(f.status).toBe("fail");
    expect(f.data).toMatchObject({ class: "down", healthStatus: 503 });
    expect(f.evidence).toContain(`GET ${url}/health: HTTP 503`);
  });
});
