// The vLLM double served in-process on loopback (real HTTP, the same handler as the engine process), for
// the verify tests that need a faithful engine, or one that breaks one contract (FAKE_BREAK).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { newCounters, vllmHandler } from "./http.js";
import { makePlan } from "./plan.js";

export const FULL_ARGS = [
  "/models/qwen",
  "--served-model-name",
  "qwen",
  "--max-model-len",
  "8192",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "qwen3_xml",
  "--reasoning-parser",
  "qwen3",
];

export async function serveDouble(
  args: readonly string[] = FULL_ARGS,
  env: Record<string, string> = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const plan = makePlan(args, { FAKE_DECODE_TOK_S: "2000", ...env });
  const server = createServer(
    vllmHandler(plan, newCounters(), Date.now(), () => {}, { name: "APIServer", pid: process.pid }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
