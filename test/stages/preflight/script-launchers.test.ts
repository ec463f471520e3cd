// Files that start the repository's own serve script: found by discovery and checked with the script they start
// (a client that runs it first, a wrapper that runs it in a container and the unit that runs the wrapper, an
// installer whose heredoc unit runs it), and a Slurm job file read as the shell script it is. Real git repositories.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { startedScripts } from "../../../src/domain/launch/started-scripts.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(files: Record<string, string>): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  r.commit("add", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return JSON.parse(out) as Report;
}

const SERVE = "#!/bin/bash\nexec llama-server -m /m.gguf --port 8080\n";
/** Every file a finding ties to a target: the launch file, its unit, the script that starts it. */
const checked = (r: Report) =>
  [
    ...new Set(
      r.findings.flatMap((f) =>
        [f.file, f.data?.unit, f.data?.launcher].filter((x): x is string => typeof x === "string"),
      ),
    ),
  ].sort();

describe("scripts that start the repository's serve script", () => {
  it("a client, a container wrapper and the unit that runs the wrapper are each checked with it", async () => {
    const report = await preflight({
      "start_server.sh": SERVE,
      "opencode.sh": '#!/bin/bash\n./start_server.sh "$MODEL" > log 2>&1 &\nexec opencode\n',
      "scripts/podman_start.sh":
        '#!/bin/bash\npodman create --name llm "$IMAGE" sleep infinity\npodman start llm\nexec podman exec llm /work/start_server.sh router\n',
      "llm.service": "[Unit]\nDescription=llm\n\n[Service]\nExecStart=%h/repo/scripts/podman_start.sh router\n",
      "notes.sh": "#!/bin/bash\necho 'run ./start_server.sh to serve'\ncp start_server.sh /tmp/\n",
    });
    expect(checked(report)).toEqual(["llm.service", "opencode.sh", "scripts/podman_start.sh", "start_server.sh"]);
    // the serve script's own file checks ran once
    expect(report.findings.filter((f) => f.check === "preflight.bash-syntax")).toHaveLength(1);
  });

  it("an installer whose heredoc unit runs the script starts it; a Slurm job file is a shell script", async () => {
    expect(
      startedScripts('cat > "$UNIT" <<EOF\n[Service]\nExecStart=${SCRIPT_DIR}/daemon.sh\nEOF\nsystemctl start x\n'),
    ).toEqual(new Set(["${SCRIPT_DIR}/daemon.sh", "systemctl:x.service"])); // as written: matched by name
    const report = await preflight({
      "jobs/serve.slurm":
        "#!/bin/bash\n#SBATCH --gpus=2\npython -m sglang.launch_server --model-path /m --tp-size 2 --port 30000\n",
    });
    expect(checked(report)).toEqual(["jobs/serve.slurm"]);
  });

  it("the unit an installer writes with a heredoc is checked as the script's unit, at its lines there", async () => {
    const install = [
      "#!/bin/bash",
      'SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"',
      "cat > /etc/systemd/system/llm.service <<EOF",
      "[Unit]",
      "Description=vLLM",
      "",
      "[Service]",
      "ExecStart=${SCRIPT_DIR}/daemon.sh",
      "Restart=on-failure",
      "EOF",
      "systemctl daemon-reload",
      "systemctl enable --now llm",
      "",
    ].join("\n");
    const report = await preflight({
      "daemon.sh": "#!/bin/bash\nexec vllm serve /m --port 8000\n",
      "install.sh": install,
    });
    const traps = report.findings.filter((f) => f.check === "preflight.traps" && f.status !== "pass");
    expect(traps.map((f) => [f.data?.rule, f.file, f.line])).toEqual([["restart-on-failure", "install.sh", 9]]);
  });
});
