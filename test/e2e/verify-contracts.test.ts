// The client contracts of issue 24 on the sandbox host: the engine double in its container under a unit,
// one faithful and one per broken contract (FAKE_BREAK), each failing exactly its check with a fix.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SshHost } from "../../src/ports/host/ssh.js";
import type { Finding } from "../../src/domain/report/finding.js";
import { runVerify, VERIFY_CHECKS } from "../../src/stages/verify/verify.js";
import { sandboxOrSkip, target } from "./support/sandbox.js";
import { removeUnit } from "./support/units.js";
import { bootCase, contextFor, waitReady, type Booted, type Case } from "./support/verify-helpers.js";

const ARGS = [
  "--served-model-name",
  "qwen",
  "--max-model-len",
  "8192",
  "--reasoning-parser",
  "qwen3",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "qwen3_xml",
];
const CONTRACTS = { thinking: true, tools: true, structured: true, metrics: ["alerts/vllm.rules.yml"] };
const RULES = readFileSync(new URL("../fixtures/dashboards/vllm-alerts.yml", import.meta.url), "utf8");
const broken = (b: string): Case => ({ live: ARGS, contracts: CONTRACTS, unitEnv: { FAKE_BREAK: b } });
const CASES: Record<string, Case> = {
  faithful: { live: ARGS, contracts: CONTRACTS },
  toolStream: broken("tool-stream"),
  thinkOff: broken("think-off"),
  structured: broken("structured"),
  wedged: broken("wedged"),
};
// the HTTP checks, models to metrics, in report order
const HTTP = VERIFY_CHECKS.slice(VERIFY_CHECKS.indexOf("verify.models"), VERIFY_CHECKS.indexOf("verify.metrics") + 1);

describe("verify's client contracts on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const booted = new Map<string, Booted>();
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    let port = 7960;
    const entries = Object.entries(CASES);
    const results = await Promise.all(entries.map(([, c]) => bootCase(host, s, port++, c)));
    entries.forEach(([k], i) => booted.set(k, results[i]!));
    // the alert rules the endpoint declares, committed beside the serve script
    for (const b of results) b.sha = b.repo.commit("alert rules", { "alerts/vllm.rules.yml": RULES });
    await Promise.all(results.map(waitReady));
  });
  afterAll(async () => {
    for (const b of booted.values()) {
      await removeUnit(host, b.u);
      b.repo.cleanup();
    }
    await host?.close();
  });

  const http = async (key: string): Promise<Record<string, Finding>> => {
    const fs = await runVerify(contextFor(host, booted.get(key)!), {
      deployment: null,
      timeouts: { livenessMs: 3000 },
    });
    return Object.fromEntries(fs.filter((f) => (HTTP as readonly string[]).includes(f.check)).map((f) => [f.check, f]));
  };
  const failing = (by: Record<string, Finding>) =>
    Object.values(by)
      .filter((f) => f.status === "fail")
      .map((f) => f.check)
      .sort();

  it("a faithful engine passes every client contract, the alert rules' metric names included", async (ctx) => {
    sandboxOrSkip(ctx);
    const by = await http("faithful");
    expect(
      Object.values(by).map((f) => `${f.check}: ${f.status}`),
      JSON.stringify(by),
    ).toEqual(HTTP.map((c) => `${c}: pass`));
  });

  it.for([
    ["toolStream", "verify.tools", /stream \(server: call get_weather has arguments that are not a JSON object/],
    ["thinkOff", "verify.thinking", /enable_thinking false: the answer came back duplicated/],
    ["structured", "verify.structured", /the reply is not JSON/],
  ] as const)("%s fails exactly %s", async ([key, check, summary], ctx) => {
    sandboxOrSkip(ctx);
    const by = await http(key);
    expect(failing(by)).toEqual([check]);
    expect(by[check]!.summary).toMatch(summary);
    expect(by[check]!.fix).toMatch(/\S/);
  });

  it("verify.slo: a bounded load through the chosen route, its figures recorded on the host and compared at the next run", async (ctx) => {
    sandboxOrSkip(ctx);
    const b = booted.get("faithful")!;
    await host.run(["rm", "-f", `.deploy-gate/slo/${b.name}.json`]);
    const withSlo = {
      ...b,
      endpoint: {
        ...b.endpoint,
        slo: {
          concurrency: 2,
          requests: 4,
          promptTokens: 64,
          maxTokens: 8,
          limits: { maxErrorRate: 0 },
          tolerance: 10,
        },
      },
    };
    const slo = async () =>
      (await runVerify(contextFor(host, withSlo), { deployment: null })).find((f) => f.check === "verify.slo")!;
    const first = await slo();
    expect(first.status, JSON.stringify(first)).toBe("pass");
    expect(first.data).toMatchObject({ figures: { requests: 4, errors: 0 }, previous: null, source: "load" });
    expect(first.evidence).toContain("no figures from a previous deploy on the host yet");
    const recorded = JSON.parse((await host.run(["cat", `.deploy-gate/slo/${b.name}.json`])).stdout) as { sha: string };
    expect(recorded.sha).toBe(b.sha);
    const second = await slo();
    expect(second.data).toMatchObject({ previous: { requests: 4 } });
    expect(second.evidence).toContainEqual(expect.stringMatching(/^previous deploy: TTFT p95 [\d.]+ ms/));
  });

  it("a wedged engine (/health 200, completions hang) fails verify.liveness as wedged, the rest not checked", async (ctx) => {
    sandboxOrSkip(ctx);
    const by = await http("wedged");
    expect(by["verify.models"]!.status).toBe("pass");
    expect(by["verify.metrics"]!.status).toBe("pass"); // /metrics needs no completion
    expect(by["verify.liveness"]).toMatchObject({ status: "fail", data: { class: "wedged", healthStatus: 200 } });
    for (const c of ["verify.thinking", "verify.tools", "verify.structured"])
      expect(by[c]!.summary).toMatch(/^not checked: the engine did not finish a one-token completion within 3000 ms/);
  });
});
