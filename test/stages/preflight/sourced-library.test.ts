// A serve script whose launch is a function of a library it sources: found, read with the library (each flag on the
// library's own line), and a flag the library drops traced to the library's commit. Real git repositories.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { sourcedFiles } from "../../../src/domain/launch/sourced.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(cwd: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd });
  return JSON.parse(out) as Report;
}
const of = (r: Report, check: string, status?: string) =>
  r.findings.filter((f: Finding) => f.check === check && (!status || f.status === status));

const SCRIPT = `#!/bin/bash
SCRIPT_DIR="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPT_DIR/common.sh"
run_llama_server "gpu" "$@"
`;
const LIB = (extra: string) => `#!/bin/bash
run_llama_server() {
    local kind="$1"
    shift
    local args="--host 0.0.0.0 ${extra}$@"
    if [[ "$args" != *"--port"* ]]; then
        args="--port 9000 $args"
    fi
    docker run --rm --gpus all ghcr.io/ggml-org/llama.cpp:server-cuda $args
}
`;

describe("a launch in a sourced library", () => {
  it("finds the script that calls it, and traces the library's drop to its commit and line", async () => {
    const r = tempRepo();
    repos.push(r);
    const first = r.commit("serve", {
      "llama/run-gpu.sh": SCRIPT,
      "llama/common.sh": LIB("--jinja --chat-template chatml "),
    });
    r.commit("no default chat template", { "llama/common.sh": LIB("") });
    const report = await preflight(r.dir, "--base", first);
    // the script is the target (the library alone calls nothing)
    expect([...new Set(of(report, "preflight.traps").map((f) => f.file))]).toEqual(["llama/run-gpu.sh"]);
    const dropped = of(report, "preflight.dropped-flags", "fail");
    expect(dropped.map((f) => [f.data?.flag, f.evidence?.[1]])).toEqual([
      ["--jinja", expect.stringMatching(/:llama\/common\.sh:5: --jinja$/)],
      ["--chat-template", expect.stringMatching(/:llama\/common\.sh:5: --chat-template chatml$/)],
    ]);
  });
});

describe("a library function that passes the call's flags on", () => {
  it('`run_server --jinja ...` into `llama-server "${defaults[@]}" "$@"`: both sets of flags, each on its own file', async () => {
    const r = tempRepo();
    repos.push(r);
    const lib = [
      "run_server() {",
      "  local defaults=(",
      "    --host 0.0.0.0",
      '    --port "${PORT:-3191}"',
      "  )",
      '  build/bin/llama-server "${defaults[@]}" "$@"',
      "}",
      "",
    ].join("\n");
    const run = (extra: string) =>
      `#!/bin/bash\nsource ../setup.sh\n\nrun_server \\\n    --jinja \\\n${extra}    --ctx-size 32768\n`;
    const first = r.commit("serve", { "setup.sh": lib, "glm/run.sh": run("    --alias glm \\\n") });
    r.commit("no alias", { "glm/run.sh": run("") });
    const report = await preflight(r.dir, "--base", first);
    expect([...new Set(of(report, "preflight.traps").map((f) => f.file))]).toEqual(["glm/run.sh"]);
    const dropped = of(report, "preflight.dropped-flags").filter((f) => f.status !== "pass");
    expect(dropped.map((f) => [f.data?.flag, f.evidence?.[1]])).toEqual([
      ["--alias", expect.stringMatching(/:glm\/run\.sh:6: --alias glm$/)],
    ]);
  });
});

describe("sourcedFiles", () => {
  it("reads the paths relative to the script's own directory, however it is spelt, and nothing else", () => {
    const text = [
      'DIR="$(dirname "$0")"',
      'source "$DIR/a.sh"',
      '. "$(dirname "$0")/b.sh"',
      "source ${BASH_SOURCE%/*}/c.sh",
      ". ./d.sh",
      "source e.sh",
      'source "$HOME/.bashrc"',
      "source /etc/profile",
      'source "$VENV/bin/activate"',
    ].join("\n");
    expect(sourcedFiles(text)).toEqual([
      { path: "a.sh", line: 2 },
      { path: "b.sh", line: 3 },
      { path: "c.sh", line: 4 },
      { path: "d.sh", line: 5 },
      { path: "e.sh", line: 6 },
    ]);
  });
});
