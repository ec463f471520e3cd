// A compose file whose engine services were all renamed in one change (round AB's intersight shape, in our own
// words): each new service is compared with the old one in its place, so only the flags no longer passed are dropped.
import { afterAll, describe, expect, it } from "vitest";
import { preflightHistory } from "../../helpers/preflight-report.js";
import type { TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const service = (name: string, command: string) =>
  `  ${name}:\n    image: vllm/vllm-openai:v0.11.0\n    command: ${command}\n    gpus: all\n`;

describe("engine services renamed in one change", () => {
  it("pairs them in order: the flags each new one no longer passes are dropped, nothing else", async () => {
    const before =
      "services:\n" +
      service("vllm", "--model /m --gpu-memory-utilization=0.4 --max-model-len=2048") +
      service("vllm-embedded", "--model /e --gpu-memory-utilization=0.4");
    const after =
      "services:\n" + service("vllm-gpu", "--model /m --max-model-len=32768") + service("vllm-embedding", "--model /e");
    const report = await preflightHistory([{ "compose.yaml": before }, { "compose.yaml": after }], repos, [
      "--base",
      "HEAD~1",
    ]);
    const dropped = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(dropped.map((f) => [f.data?.part, f.data?.flag, f.data?.baseLine])).toEqual([
      ["vllm-gpu", "--gpu-memory-utilization", 4],
      ["vllm-embedding", "--gpu-memory-utilization", 8],
    ]);
  });
});
