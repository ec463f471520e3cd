// A flag moved under a condition the defaults do not meet (`if [[ "$USE_JINJA" == on ]]; then ARGS+=(--jinja)`
// with USE_JINJA defaulting to off) reaches the engine no more: preflight reports it dropped, at the branch's line.
// A condition the defaults meet, or one on a variable the script never sets, drops nothing. Real git repositories,
// the CLI's preflight --json.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const BASE = `#!/bin/bash
ARGS=(
  -m /models/m.gguf
  --port 8080
  --jinja
  --metrics
)
exec llama-server "\${ARGS[@]}"
`;
const moved = (setting: string, test: string) => `#!/bin/bash
${setting}
ARGS=(
  -m /models/m.gguf
  --port 8080
  --metrics
)
if ${test}; then
  ARGS+=(--jinja)
else
  ARGS+=(--no-jinja)
fi
exec llama-server "\${ARGS[@]}"
`;

async function drops(head: string): Promise<[unknown, unknown, string][]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("serve", { "serve.sh": BASE });
  r.commit("jinja behind a switch", { "serve.sh": head });
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return (JSON.parse(out) as Report).findings
    .filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass")
    .map((f) => [f.data?.flag, f.data?.baseLine, f.summary]);
}

describe("preflight.dropped-flags: a flag moved into a branch the defaults do not take", () => {
  it("is reported dropped, naming the branch's line", async () => {
    const found = await drops(moved('USE_JINJA="${LLAMA_USE_JINJA:-off}"', '[[ "${USE_JINJA}" == "on" ]]'));
    expect(found.map(([flag, line]) => [flag, line])).toEqual([["--jinja", 5]]);
    expect(found[0]![2]).toMatch(/only in a branch the defaults do not take \(line 9\)/);
  });

  it("an elif or else the defaults reach keeps it", async () => {
    expect(await drops(moved('USE_JINJA="${LLAMA_USE_JINJA:-on}"', '[[ "${USE_JINJA}" == "on" ]]'))).toEqual([]);
    // else-branch taken: the test is false by default, and --jinja is in the else
    const swapped = moved('MODE="${MODE:-chat}"', '[ "$MODE" = "raw" ]')
      .replace("ARGS+=(--jinja)", "ARGS+=(--no-jinja-tmp)")
      .replace("ARGS+=(--no-jinja)", "ARGS+=(--jinja)");
    expect((await drops(swapped)).map(([flag]) => flag)).toEqual([]);
  });

  it("`[[ test ]] && FLAGS=...` the defaults make false: the flags in FLAGS are off by default", async () => {
    const head = `#!/bin/bash
FLAGS=""
[[ "\${DETERMINISTIC:-0}" == "1" ]] && FLAGS="--jinja --seed 1"
exec llama-server -m /models/m.gguf --port 8080 --metrics $FLAGS
`;
    const found = await drops(head);
    expect(found.map(([flag, line]) => [flag, line])).toEqual([["--jinja", 5]]);
    expect(found[0]![2]).toMatch(/only in a branch the defaults do not take \(line 3\)/);
    // the same test made true by the default keeps it
    expect(await drops(head.replace(":-0}", ":-1}"))).toEqual([]);
  });

  it("a test on a variable the script never sets is unknown: nothing is reported", async () => {
    expect(await drops(moved("", '[ -n "$ENABLE_JINJA" ]'))).toEqual([]);
  });
});
