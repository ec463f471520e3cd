// A unit that runs the serve script with words of its own (`ExecStart=/opt/llm/serve.sh big.gguf --no-mmap`), which
// the script hands the engine (`EXTRA="${@:2}"` ... `llama-server ... $EXTRA`): those words are the engine's flags,
// each at the unit's line, and a commit that stops passing one drops it there (round AH's jnb666 unit). Real git
// repositories, the CLI's preflight --json.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const SCRIPT = `#!/bin/bash
MODEL_FILE="\${1:-small.gguf}"
EXTRA_ARGS="\${@:2}"
exec /usr/local/bin/llama-server -m "/models/\${MODEL_FILE}" --port 8080 -ngl 99 $EXTRA_ARGS
`;
const unit = (args: string) => `[Unit]
Description=llama-server

[Service]
ExecStart=/opt/llm/serve.sh${args}
Restart=always

[Install]
WantedBy=multi-user.target
`;

async function dropped(base: string, head: string): Promise<[unknown, unknown, string][]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("serve", { "serve.sh": SCRIPT, "llm.service": unit(base) });
  r.commit("unit args", { "llm.service": unit(head) });
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return (JSON.parse(out) as Report).findings
    .filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass")
    .map((f) => [f.data?.flag, f.data?.flagFile, f.summary]);
}

describe("words a unit's ExecStart= hands the serve script", () => {
  it("are the engine's flags at the unit's line: one the unit stops passing is dropped there", async () => {
    const found = await dropped(" big.gguf --no-mmap --swa-full", " big.gguf --swa-full");
    expect(found.map(([flag, file]) => [flag, file])).toEqual([["--no-mmap", "llm.service"]]);
    expect(found[0]![2]).toMatch(/llm\.service line 5/);
  });

  it("drop nothing while the unit passes the same words", async () => {
    expect(await dropped(" big.gguf --no-mmap", " big.gguf  --no-mmap")).toEqual([]);
  });
});
