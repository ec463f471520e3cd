// preflight through the CLI on shapes the held-out field set D found, each written here in our own words.
import { afterEach, describe, expect, it } from "vitest";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import type { TempRepo } from "../../helpers/repo.js";
import { preflightReport } from "../../helpers/preflight-report.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const preflight = (files: Record<string, string>) => preflightReport(files, repos);
const hits = (r: Report, rule: string) =>
  r.findings.filter((f: Finding) => f.data?.rule === rule && f.status !== "pass");

describe("a finding several parts of one file share", () => {
  it("is said once, naming the parts, when a YAML anchor carries one restart policy into three services", async () => {
    const compose = `x-engine: &engine
  image: vllm/vllm-openai:v0.9.0
  ipc: host
  restart: on-failure
services:
  alpha:
    <<: *engine
    command: --model m-a --port 8001
  beta:
    <<: *engine
    command: --model m-b --port 8002
  gamma:
    <<: *engine
    command: --model m-c --port 8003
`;
    const report = await preflight({ "compose.yaml": compose });
    const found = hits(report, "restart-on-failure");
    expect(found.map((f) => [f.file, f.line])).toEqual([["compose.yaml", 4]]);
    expect(found[0]!.summary).toMatch(/3 parts/);
    expect(found[0]!.summary).toMatch(/alpha/);
    expect(found[0]!.summary).toMatch(/gamma/);
  });

  it("keeps one finding per service when each service writes the policy on its own line", async () => {
    const compose = `services:
  alpha:
    image: vllm/vllm-openai:v0.9.0
    ipc: host
    restart: on-failure
    command: --model m-a --port 8001
  beta:
    image: vllm/vllm-openai:v0.9.0
    ipc: host
    restart: on-failure
    command: --model m-b --port 8002
`;
    const report = await preflight({ "compose.yaml": compose });
    expect(hits(report, "restart-on-failure").map((f) => f.line)).toEqual([5, 10]);
  });
});
