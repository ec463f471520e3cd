import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { checkArgv, type ArgvInput } from "../../../src/stages/verify/argv.js";

const script = parseLaunch("script", "#!/bin/bash\nexec vllm serve /m --port 7770 --max-model-len 8192\n");
const input = (over: Partial<ArgvInput> = {}): ArgvInput => ({
  argv: ["vllm", "serve", "/m", "--port", "7770", "--max-model-len", "32768"],
  contracts: [],
  script,
  scriptPath: "serve.sh",
  ref: "good",
  journal: [],
  ...over,
});

describe("verify.argv", () => {
  it("a drift's redeploy command names the endpoint (and a fleet's host), so it runs as printed", () => {
    const f = checkArgv(input({ target: "--endpoint chat --hosts gpu-b" }));
    expect(f.status).toBe("fail");
    expect(f.fix).toContain("deploy-gate run --endpoint chat --hosts gpu-b --ref good");
    expect(checkArgv(input()).fix).toContain("deploy-gate run --ref good");
  });
});
