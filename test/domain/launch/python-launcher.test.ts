// The team's own Python program as a script's launch (sets T2 and Y2, written here in our own words): where the
// program may be in the repository, and whether its source starts an engine's server or only talks to one.
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { launchedBy, launchedEngine, pythonPrograms } from "../../../src/domain/launch/python-launcher.js";

const where = (text: string, dir = "scripts") => pythonPrograms(parseServeScript(text), dir).map((p) => p.candidates);

describe("pythonPrograms", () => {
  it("a module run with -m: its file or its package's __main__, from the root and beside the script", () => {
    expect(where("#!/bin/bash\nsource .venv/bin/activate\nexec python3 -m src.llm.vllm_runner\n")).toEqual([
      [
        "scripts/src/llm/vllm_runner.py",
        "src/llm/vllm_runner.py",
        "scripts/src/llm/vllm_runner/__main__.py",
        "src/llm/vllm_runner/__main__.py",
      ],
    ]);
  });

  it("an absolute path (an image's or host's install): each shorter tail of it; a relative one beside the script too", () => {
    expect(where("python3 /instance_scripts/nginx/multi_instance.py --replicas 2\n", "nginx")).toEqual([
      ["instance_scripts/nginx/multi_instance.py", "nginx/multi_instance.py"],
    ]);
    expect(where("python tools/launch.py --port 8000\n")).toEqual([["scripts/tools/launch.py", "tools/launch.py"]]);
  });

  it("the engine's own modules, a variable's path and other programs are none of the team's", () => {
    expect(where("python3 -m vllm.entrypoints.openai.api_server --port 8000\n")).toEqual([]);
    expect(where('python3 "$APP" --port 8000\nnode server.js\n')).toEqual([]);
  });
});

describe("launchedEngine", () => {
  it("names the engine a program starts as a process", () => {
    expect(launchedEngine('cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", m]')).toBe(
      "vllm",
    );
    expect(launchedEngine("subprocess.Popen(['vllm', 'serve', model, '--port', str(p)])")).toBe("vllm");
    expect(launchedEngine('args = ["python", "-m", "sglang.launch_server", "--model-path", m]')).toBe("sglang");
    expect(launchedEngine('binary = shutil.which("llama-server")')).toBe("llama.cpp");
  });

  it("a client or an in-process library user starts none", () => {
    expect(launchedEngine("from openai import OpenAI\nclient = OpenAI(base_url='http://localhost:8000/v1')\n")).toBe(
      null,
    );
    expect(launchedEngine("from vllm import LLM\nllm = LLM(model='m')\n")).toBe(null);
  });

  it("the script's launch becomes that engine, its flags unknown, at the command's line", () => {
    const s = parseServeScript("#!/bin/bash\nexec python3 -m app.run_vllm\n");
    const e = launchedBy(s, s.commands[0]!, "vllm").engine!;
    expect([e.kind, e.flags, e.line, e.builtBy]).toEqual(["vllm", [], 2, "python3 -m app.run_vllm"]);
  });
});
