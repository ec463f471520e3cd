// Launch shapes held-out rounds AE and AF found, each written here in our own words, on real git repositories: a
// unit whose ExecStart= runs the repository's script through `bash -c 'exec "${ROOT}/start.sh"'`; an installer that
// starts that unit with `systemctl enable --now "${SERVICE_NAME}"`; a script whose Python program sits at the
// repository's root, named `"$ROOT/serve.py"`.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(files: Record<string, string>): Promise<Finding[]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("launch files", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return (JSON.parse(out) as Report).findings;
}

const PROGRAM = 'import runpy, sys\nrunpy.run_module("vllm.entrypoints.openai.api_server", run_name="__main__")\n';
const START = [
  "#!/bin/bash",
  'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
  'PY="${VLLM_PYTHON:-python3}"',
  '"${PY}" "${ROOT}/serve_patched.py" --host 0.0.0.0 --port 8000',
  "",
].join("\n");
const UNIT = (exec: string) =>
  `[Unit]\nDescription=vLLM\n[Service]\nEnvironment=ROOT=/opt/lab/vllm\nExecStart=${exec}\nRestart=on-failure\n`;
const INSTALL = [
  "#!/bin/bash",
  'SERVICE_NAME="vllm-lab.service"',
  'cp "$(dirname "$0")/vllm-lab.service" /etc/systemd/system/',
  "systemctl daemon-reload",
  'systemctl enable --now "${SERVICE_NAME}"',
  "",
].join("\n");

const served = (found: Finding[]) => [...new Set(found.filter((f) => f.data?.endpoint).map((f) => f.file))].sort();

describe("a script whose Python program is at the root, a unit that runs it through bash -c, its installer", () => {
  it("are one vLLM launch: the unit's restart rule fires on its line, the installer is its launcher", async () => {
    const found = await preflight({
      "serve_patched.py": PROGRAM,
      "start_vllm.sh": START,
      "systemd/vllm-lab.service": UNIT(`/bin/bash -c 'exec "\${ROOT}/start_vllm.sh"'`),
      "systemd/install.sh": INSTALL,
    });
    expect(served(found)).toContain("start_vllm.sh");
    const restart = found.find((f) => f.data?.rule === "restart-on-failure");
    expect(restart?.file).toBe("systemd/vllm-lab.service");
    expect(restart?.line).toBe(6);
    expect(found.some((f) => f.data?.launcher === "systemd/install.sh")).toBe(true);
  });

  it("is nothing when the program is not in the repository, and the unit then runs no serve script", async () => {
    const found = await preflight({
      "start_vllm.sh": START,
      "systemd/vllm-lab.service": UNIT(`/bin/bash -c 'exec "\${ROOT}/start_vllm.sh"'`),
    });
    expect(served(found)).toEqual([]);
    expect(found.some((f) => f.data?.rule === "restart-on-failure")).toBe(false);
  });
});
