import { afterEach, expect, it, vi } from "vitest";
import { trace, tracing } from "../../src/ports/trace.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

it("is on while DEPLOY_GATE_TRACE is set, read at each call", () => {
  vi.stubEnv("DEPLOY_GATE_TRACE", "");
  expect(tracing()).toBe(false);
  vi.stubEnv("DEPLOY_GATE_TRACE", "1");
  expect(tracing()).toBe(true);
});

it("writes one timed, sanitized line on stderr", () => {
  const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  trace(performance.now(), `ssh h: HF_TOKEN=hf_${"a".repeat(24)} vllm serve -> 0`);
  expect(write).toHaveBeenCalledTimes(1);
  const line = String(write.mock.calls[0]![0]);
  expect(line).toMatch(/^\[trace\] \d+ms ssh h: HF_TOKEN=hf_\*\*\* vllm serve -> 0\n$/);
});
