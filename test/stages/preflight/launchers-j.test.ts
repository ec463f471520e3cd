// Launch shapes sets J2's and K2's first runs missed: macOS `.command` scripts, a unit that runs the serve script
// through `uv run`, a launcher that starts two serve scripts (each by its path, not only its name), commands typed
// into tmux panes, a stop script that kills by pattern, a unit that runs docker compose up, `"$VLLM_BIN" serve`.
// Real git repositories, the CLI's preflight --json.
import { afterEach, describe, expect, it } from "vitest";
import type { Report } from "../../../src/domain/report/finding.js";
import { preflightReport } from "../../helpers/preflight-report.js";
import { startedScripts } from "../../../src/domain/launch/started-scripts.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import type { TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const preflight = (files: Record<string, string>) => preflightReport(files, repos);

const serve = (port: number) => `#!/bin/bash\nexec vllm serve /m --port ${port}\n`;
/** launcher -> the scripts it was paired with */
const launched = (r: Report) => {
  const out = new Map<string, Set<string>>();
  for (const f of r.findings) {
    const l = f.data?.launcher;
    if (typeof l !== "string") continue;
    const served = f.file === l ? /starts (\S+),/.exec(f.summary)?.[1] : f.file;
    if (served) out.set(l, (out.get(l) ?? new Set()).add(served));
  }
  return Object.fromEntries([...out].map(([k, v]) => [k, [...v].sort()]));
};

describe("launch shapes of set J2", () => {
  it("a .command file is a shell script: its engine and its launcher are found", async () => {
    const report = await preflight({
      "scripts/launch_router.command":
        '#!/bin/bash\nllama-server --port "${PORT:-8080}" --models-preset p.ini &\nwait\n',
      "scripts/launch_lab.command":
        '#!/bin/bash\nHERE="$(cd "$(dirname "$0")" && pwd)"\nbash "$HERE/launch_router.command"\n',
    });
    const targets = report.findings.filter((f) => f.check === "preflight.bash-syntax").map((f) => f.file);
    expect(targets).toEqual(["scripts/launch_router.command"]);
    expect(launched(report)).toEqual({ "scripts/launch_lab.command": ["scripts/launch_router.command"] });
  });

  it("a launcher starting two serve scripts is paired with each, by the path it writes", async () => {
    const report = await preflight({
      "scripts/a/serve_t0.sh": serve(8010),
      "scripts/b/serve_t0.sh": serve(8011),
      "scripts/b/serve_oss.sh": serve(8020),
      "scripts/b/run_both.sh":
        "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 ./scripts/b/serve_oss.sh > a.log 2>&1 &\nCUDA_VISIBLE_DEVICES=1 ./scripts/b/serve_t0.sh m > b.log 2>&1 &\nwait\n",
      // a path no file of the repository has names none of them (not the a/ script of the same name)
      "scripts/c/run_gone.sh": "#!/bin/bash\n./scripts/c/serve_t0.sh &\nwait\n",
    });
    expect(launched(report)).toEqual({ "scripts/b/run_both.sh": ["scripts/b/serve_oss.sh", "scripts/b/serve_t0.sh"] });
  });

  it("lines typed into tmux panes with send-keys ... C-m start the scripts they name", async () => {
    const report = await preflight({
      "scripts/serve_t0.sh": serve(8010),
      "launch-all-in-tmux.sh": [
        "tmux new-session -d -s t0",
        "tmux send-keys 'source .venv/bin/activate' C-m",
        "tmux send-keys 'CUDA_VISIBLE_DEVICES=0 ./scripts/serve_t0.sh big-model' C-m",
        "tmux send-keys 'echo ./scripts/serve_t0.sh'",
        "",
      ].join("\n"),
    });
    expect(launched(report)).toEqual({ "launch-all-in-tmux.sh": ["scripts/serve_t0.sh"] });
  });

  it("a unit whose ExecStart= runs the serve script through uv run is its unit (restart-on-failure judged)", async () => {
    const report = await preflight({
      "scripts/serve_t0_1.sh": serve(8010),
      "scripts/services/t0_main.service": [
        "[Service]",
        "ExecStart=/home/t0/.local/bin/uv run --directory /home/t0/t0-1/ /home/t0/t0-1/scripts/serve_t0_1.sh",
        "Restart=on-failure",
        "",
      ].join("\n"),
    });
    const hit = report.findings.find((f) => f.data?.rule === "restart-on-failure");
    expect([hit?.file, hit?.line]).toEqual(["scripts/services/t0_main.service", 3]);
  });

  it("a script that starts no engine but kills by pattern gets broad-kill; one that names no engine is not read", async () => {
    const report = await preflight({
      "serve.sh": serve(8000),
      "stop_all.sh": '#!/bin/bash\nsource ./ports.sh\npkill -f "vllm serve"\npkill -f uvicorn || true\n',
      "clean_tmp.sh": "#!/bin/bash\npkill -f my-indexer\n",
    });
    const kills = report.findings.filter((f) => f.data?.rule === "broad-kill").map((f) => [f.file, f.line]);
    expect(kills).toEqual([
      ["stop_all.sh", 3],
      ["stop_all.sh", 4],
    ]);
    // a finding about the stop script, not a launch of it
    expect(report.findings.filter((f) => f.file === "stop_all.sh" && f.data?.endpoint !== undefined)).toEqual([]);
  });
});

describe("launch shapes of set K2", () => {
  it("a unit whose ExecStart= runs docker compose up starts the compose file above it", async () => {
    const report = await preflight({
      "server/docker-compose.yml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.11.0\n    command: --model /m\n",
      "server/systemd/vllm.service":
        "[Service]\nType=oneshot\nExecStart=/opt/vllm/docker-compose --env-file /opt/vllm/.env up -d vllm\n",
    });
    expect(launched(report)).toEqual({ "server/systemd/vllm.service": ["server/docker-compose.yml"] });
  });

  it("a test that runs the serve script (with a stub engine) is no launcher of it", async () => {
    const report = await preflight({
      "scripts/start.sh": serve(8000),
      "scripts/test-start.sh": "#!/bin/bash\nVLLM_BIN=./fake-vllm ./scripts/start.sh --dry\n",
      "scripts/restart.sh": "#!/bin/bash\n./scripts/start.sh\n",
    });
    expect(launched(report)).toEqual({ "scripts/restart.sh": ["scripts/start.sh"] });
  });

  it("an installer's heredoc unit running the script through bash -lc '... bash run.sh' starts it", () => {
    const text =
      "cat > \"$UNIT\" <<EOF\n[Service]\nExecStart=/bin/bash -lc 'cd $REPO && bash run_sglang_server.sh'\nEOF\n";
    expect(startedScripts(text)).toEqual(new Set(["run_sglang_server.sh"]));
  });

  it('`"$VLLM_BIN" serve` with VLLM_BIN set outside the script is vLLM', () => {
    const script = parseServeScript('nohup "$VLLM_BIN" serve "$MODEL" --port 8000 > log 2>&1 &\n');
    expect([script.engine?.kind, script.engine?.flags.map((f) => f.name)]).toEqual(["vllm", ["--port"]]);
    // a name that says no engine stays unknown
    expect(parseServeScript('"$APP_BIN" serve "$MODEL" --port 8000\n').engine).toBeNull();
  });
});
