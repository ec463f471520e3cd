// A secret flag's value (--api-key, --password) read from the serve script never reaches a report, even
// inside a finding about that very flag: a contract whose value changed, a flag dropped since the base,
// and the config `init` writes. The redactor cannot catch these: the value stands alone in `data`, or
// after prose ("--api-key is VALUE").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const SECRET = "Tr0ub4dorHorse9";
const PASSWORD = "hunter2hunter2";
const script = (flags: string) => `#!/bin/bash
podman rm -f llm || true
podman run --name llm --ulimit memlock=-1:-1 vllm/vllm-openai:latest \\
  --model qwen ${flags}--reasoning-parser qwen3
`;
const config = (flags: string[]) =>
  `version: 1\nendpoints:\n  archon:\n    script: serve.sh\n    contracts:\n      flags: ${JSON.stringify(flags)}\n`;

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
function repo(): TempRepo {
  const r = tempRepo();
  repos.push(r);
  return r;
}

/** Every output form of preflight: terminal, --json, the job summary file. */
async function outputs(cwd: string): Promise<string> {
  const all: string[] = [];
  for (const argv of [
    ["preflight", "--no-color"],
    ["preflight", "--json", "--summary", join(cwd, "summary.md")],
  ]) {
    const code = await main(argv, { out: (s) => all.push(s), err: (s) => all.push(s), isTTY: false, env: {}, cwd });
    expect(code).not.toBe(2);
  }
  all.push(readFileSync(join(cwd, "summary.md"), "utf8"));
  return all.join("\n");
}

describe("secret flag values in preflight reports", () => {
  it("a contract --api-key $VAR whose value became a literal key fails without printing the key", async () => {
    const r = repo();
    r.commit("base", {
      "serve.sh": script('--api-key "$VLLM_API_KEY" '),
      "deploy-gate.yml": config(["--api-key $VLLM_API_KEY"]),
    });
    r.commit("hardcode the key", { "serve.sh": script(`--api-key ${SECRET} `) });
    const text = await outputs(r.dir);
    expect(text).toContain("--api-key is ***, the contract says $VLLM_API_KEY");
    expect(text).not.toContain(SECRET);
  });

  it("a dropped --api-key / --password is named without its value, in data too", async () => {
    const r = repo();
    r.commit("base", {
      "serve.sh": script(`--api-key ${SECRET} --password ${PASSWORD} `),
      "deploy-gate.yml": config([]),
    });
    r.commit("drop them", { "serve.sh": script("") });
    const text = await outputs(r.dir);
    expect(text).toContain("--api-key *** was in the engine argv");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PASSWORD);
  });

  it("init lists a literal --api-key among the other flags without copying the key into deploy-gate.yml", async () => {
    const r = repo();
    r.commit("base", { "serve.sh": script(`--api-key ${SECRET} --hf-token "$HF_TOKEN" `) });
    const code = await main(["init"], { out: () => {}, err: () => {}, isTTY: false, env: {}, cwd: r.dir });
    expect(code).toBe(0);
    const written = readFileSync(join(r.dir, "deploy-gate.yml"), "utf8");
    expect(written).toContain('"--api-key ***"');
    expect(written).toContain('"--hf-token $HF_TOKEN"');
    expect(written).not.toContain(SECRET);
  });
});
