// `deploy-gate init` through main(), on real git repositories with the example serve script.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { SCHEMA_ID } from "../../src/domain/config/json-schema.js";
import { parseConfig } from "../../src/domain/config/load.js";
import { tempRepo, type TempRepo } from "../helpers/repo.js";

const SCRIPT = readFileSync(
  join(import.meta.dirname, "..", "..", "examples/serve-repo/scripts/serve-archon.sh"),
  "utf8",
);
let repo: TempRepo | null = null;
afterEach(() => {
  repo?.cleanup();
  repo = null;
});

async function run(cwd: string, ...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env: {}, cwd });
  return { code, out, err };
}

describe("deploy-gate init", () => {
  it("writes deploy-gate.yml with the contract flags of each script's current argv, and it passes preflight", async () => {
    repo = tempRepo();
    repo.commit("scripts", {
      "scripts/serve-archon.sh": SCRIPT,
      "scripts/serve-dragoon.sh":
        "#!/bin/bash\nexec vllm serve /m --port 7771 --served-model-name dragoon --max-num-seqs 8\n",
      "README.md": "x\n",
    });
    const r = await run(join(repo.dir, "scripts"), "init");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote \.\.\/deploy-gate\.yml: 2 endpoint\(s\) \(serve-archon, serve-dragoon\)/);
    const text = readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8");
    expect(text.split("\n")[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_ID}`);
    const c = parseConfig(text, "deploy-gate.yml");
    const archon = c.endpoints["serve-archon"]!;
    expect(archon.script).toBe("scripts/serve-archon.sh");
    // Client-facing flags with their values as the script has them now; tuning flags only as comments.
    expect(archon.contracts.flags).toEqual(
      expect.arrayContaining([
        "--reasoning-parser qwen3",
        "--enable-auto-tool-choice",
        "--tool-call-parser qwen3_xml",
        "--served-model-name qwen",
        "--port 7770",
      ]),
    );
    expect(archon.contracts.flags.some((f) => f.startsWith("--gpu-memory-utilization"))).toBe(false);
    expect(text).toMatch(/#\s+- "--gpu-memory-utilization 0\.95"/);
    expect(archon.contracts).toMatchObject({ thinking: true, tools: true });
    // Passed only when SPEC is set: a comment, not a contract.
    expect(archon.contracts.flags.some((f) => f.startsWith("--speculative-config"))).toBe(false);
    expect(r.out).toContain(`${archon.contracts.flags.length + 2} contract flag(s)`);
    expect(c.endpoints["serve-dragoon"]!.contracts.flags).toEqual(["--port 7771", "--served-model-name dragoon"]);
    repo.commit("config");
    const pre = await run(repo.dir, "preflight", "--json");
    const report = JSON.parse(pre.out);
    expect(
      report.findings.filter(
        (f: { check: string; status: string }) => f.check === "preflight.contracts" && f.status === "fail",
      ),
    ).toEqual([]);
    expect(
      report.findings.filter((f: { check: string }) => f.check === "preflight.contracts").length,
    ).toBeGreaterThanOrEqual(2);
  });

  it("takes SGLang's and llama.cpp's own client-facing flags (context, served name, templates) as contracts", async () => {
    repo = tempRepo();
    repo.commit("scripts", {
      "sg.sh":
        "#!/bin/bash\npython3 -m sglang.launch_server --model-path /m --port 30000 --tp 2 --context-length 32768 --served-model-name q\n",
      "llama.sh": "#!/bin/bash\nllama-server -m /m.gguf --port 8080 -c 16384 --jinja -ngl 99 --alias qwen\n",
    });
    expect((await run(repo.dir, "init")).code).toBe(0);
    const c = parseConfig(readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8"), "deploy-gate.yml");
    expect(c.endpoints.sg!.contracts.flags).toEqual([
      "--port 30000",
      "--context-length 32768",
      "--served-model-name q",
    ]);
    expect(c.endpoints.llama!.contracts.flags).toEqual(["--port 8080", "-c 16384", "--jinja", "--alias qwen"]);
  });

  it("turns on the thinking and tools checks from each engine's own flags", async () => {
    repo = tempRepo();
    repo.commit("scripts", {
      "sg.sh":
        "#!/bin/bash\npython3 -m sglang.launch_server --model-path /m --port 30000 --reasoning-parser qwen3 --tool-call-parser qwen25\n",
      "llama.sh": "#!/bin/bash\nllama-server -m /m.gguf --port 8080 --jinja --reasoning-format deepseek\n",
      "plain.sh": "#!/bin/bash\nllama-server -m /m.gguf --port 8081 --reasoning-format none\n",
    });
    expect((await run(repo.dir, "init")).code).toBe(0);
    const c = parseConfig(readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8"), "deploy-gate.yml");
    expect(c.endpoints.sg!.contracts).toMatchObject({ thinking: true, tools: true });
    expect(c.endpoints.llama!.contracts).toMatchObject({ thinking: true, tools: true });
    expect(c.endpoints.plain!.contracts).toMatchObject({ thinking: false, tools: false });
  });

  it("names two scripts of one file name by their directories, not serve and serve-2", async () => {
    repo = tempRepo();
    repo.commit("scripts", {
      "a/serve.sh": "#!/bin/bash\nvllm serve /m --port 8000\n",
      "b/serve.sh": "#!/bin/bash\nvllm serve /m --port 8001\n",
      "c/serve-x.sh": "#!/bin/bash\nvllm serve /m --port 8002\n",
    });
    const r = await run(repo.dir, "init");
    expect(r.out).toMatch(/3 endpoint\(s\) \(a-serve, b-serve, serve-x\)/);
  });

  it("names a quadlet or a unit that starts the engine by its own key, with its argv as contracts", async () => {
    repo = tempRepo();
    const quadlet =
      "[Container]\nImage=docker.io/vllm/vllm-openai:v0.9.2\nExec=--model /m --served-model-name chat --enable-auto-tool-choice --tool-call-parser hermes\nPublishPort=8000:8000\n\n[Install]\nWantedBy=default.target\n";
    const unit =
      "[Unit]\nDescription=vLLM\n[Service]\nExecStart=/opt/venv/bin/vllm serve /m --port 8001 --served-model-name direct\nRestart=always\n";
    repo.commit("files", { "deploy/chat.container": quadlet, "deploy/direct.service": unit });
    const r = await run(repo.dir, "init");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const c = parseConfig(readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8"), "deploy-gate.yml");
    const eps = Object.values(c.endpoints);
    const chat = eps.find((e) => e.quadlet === "deploy/chat.container")!;
    expect(chat.script).toBeUndefined();
    expect(chat.contracts.flags).toEqual(
      expect.arrayContaining(["--served-model-name chat", "--enable-auto-tool-choice", "--tool-call-parser hermes"]),
    );
    expect(eps.find((e) => e.unit === "deploy/direct.service")!.contracts.flags).toEqual(
      expect.arrayContaining(["--port 8001", "--served-model-name direct"]),
    );
  });

  it("refuses to overwrite an existing config, and leaves it as it was", async () => {
    repo = tempRepo();
    repo.commit("s", { "serve.sh": SCRIPT, "deploy-gate.yml": "version: 1\n# mine\n" });
    const r = await run(repo.dir, "init");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/deploy-gate\.yml already exists: init never overwrites it/);
    expect(readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8")).toBe("version: 1\n# mine\n");
  });

  it("says what to do when there is no serve script, and writes nothing", async () => {
    repo = tempRepo();
    repo.commit("s", { "build.sh": "#!/bin/sh\nmake\n" });
    const r = await run(repo.dir, "init");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /no serve scripts, units or quadlets that start an inference server found .* write deploy-gate\.yml by hand/,
    );
    expect(existsSync(join(repo.dir, "deploy-gate.yml"))).toBe(false);
  });

  it("a dangling symlink in the way, or a --config directory that does not exist: one line, nothing written", async () => {
    repo = tempRepo();
    repo.commit("scripts", { "scripts/serve-archon.sh": SCRIPT });
    symlinkSync(join(repo.dir, "nowhere.yml"), join(repo.dir, "deploy-gate.yml"));
    const taken = await run(repo.dir, "init");
    expect(taken.code).toBe(2);
    expect(taken.err).toMatch(/deploy-gate\.yml already exists: init never overwrites it/);
    const nodir = await run(repo.dir, "init", "--config", "nodir/x.yml");
    expect(nodir.code).toBe(2);
    expect(nodir.err).toMatch(/the directory nodir does not exist: create it first/);
    expect(nodir.err).not.toMatch(/internal error|^\s+at /m);
    expect(existsSync(join(repo.dir, "nowhere.yml"))).toBe(false);
  });

  it("never reads a symlinked script (it may point outside the repository)", async () => {
    repo = tempRepo();
    const outside = mkdtempSync(join(tmpdir(), "dg-outside-"));
    try {
      writeFileSync(join(outside, "serve.sh"), SCRIPT);
      repo.commit("a link", { "README.md": "x\n" });
      mkdirSync(join(repo.dir, "scripts"));
      symlinkSync(join(outside, "serve.sh"), join(repo.dir, "scripts/serve-archon.sh"));
      execFileSync("git", ["-C", repo.dir, "add", "-A"]);
      const r = await run(repo.dir, "init");
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/no serve scripts/);
      expect(existsSync(join(repo.dir, "deploy-gate.yml"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("first run: init says to commit the config; preflight on the untracked config says commit it, never stash it", async () => {
    repo = tempRepo();
    repo.commit("scripts", { "scripts/serve-archon.sh": SCRIPT });
    const r = await run(repo.dir, "init");
    expect(r.code).toBe(0);
    expect(r.out).toContain("git add deploy-gate.yml && git commit");
    expect(r.out).toMatch(/deploy-gate init --commit/);
    const pre = JSON.parse((await run(repo.dir, "preflight", "--json")).out);
    const clean = pre.findings.find((f: { check: string }) => f.check === "preflight.clean-tree");
    expect(clean.status).toBe("fail");
    expect(clean.fix).toContain("git add deploy-gate.yml && git commit");
    expect(clean.fix).not.toMatch(/stash/);
  });

  it("init --commit commits only the config it wrote, and the first preflight is green", async () => {
    repo = tempRepo();
    repo.commit("scripts", { "scripts/serve-archon.sh": SCRIPT });
    repo.git("config", "user.name", "t");
    repo.git("config", "user.email", "t@example.invalid");
    writeFileSync(join(repo.dir, "staged.txt"), "mine\n");
    execFileSync("git", ["-C", repo.dir, "add", "staged.txt"]);
    const r = await run(repo.dir, "init", "--commit");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/committed deploy-gate\.yml/);
    const files = execFileSync("git", ["-C", repo.dir, "show", "--name-only", "--format=", "HEAD"], {
      encoding: "utf8",
    });
    expect(files.trim()).toBe("deploy-gate.yml");
    repo.git("commit", "-qm", "mine");
    const pre = await run(repo.dir, "preflight", "--json");
    expect(JSON.parse(pre.out).verdict).not.toBe("fail");
    expect(pre.code).toBe(0);
  });

  it("attaches the unit whose ExecStart runs the script (serve-archon.sh installed as serve_archon.sh), so unit traps run", async () => {
    repo = tempRepo();
    repo.commit("files", {
      "scripts/serve-archon.sh": SCRIPT,
      "deploy/frank-archon.service":
        "[Unit]\nDescription=x\n[Service]\nExecStart=/home/dank/serve_archon.sh\nRestart=on-failure\n",
      "deploy/other.service": "[Service]\nExecStart=/usr/bin/true\n",
    });
    expect((await run(repo.dir, "init")).code).toBe(0);
    const c = parseConfig(readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8"), "deploy-gate.yml");
    expect(c.endpoints["serve-archon"]!.unit).toBe("deploy/frank-archon.service");
    repo.commit("config");
    const pre = JSON.parse((await run(repo.dir, "preflight", "--json")).out);
    const traps = pre.findings.filter((f: { check: string; file?: string }) => f.check === "preflight.traps");
    expect(JSON.stringify(traps)).toMatch(/frank-archon\.service/);
  });
});

describe("deploy-gate init on compose files and manifests (issue 22)", () => {
  it("names each engine service of a compose file as script + part, with its contracts, and preflight passes on it", async () => {
    repo = tempRepo();
    repo.commit("compose", {
      "docker-compose.yml":
        'services:\n  chat:\n    image: vllm/vllm-openai:v0.10.1\n    command: --model m --served-model-name chat --max-model-len 8192\n  coder:\n    image: vllm/vllm-openai:v0.10.1\n    command: ["--model", "c", "--served-model-name", "coder"]\n  db:\n    image: postgres:16\n',
    });
    const r = await run(repo.dir, "init");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const text = readFileSync(join(repo.dir, "deploy-gate.yml"), "utf8");
    const cfg = parseConfig(text, join(repo.dir, "deploy-gate.yml"));
    expect(Object.entries(cfg.endpoints).map(([n, e]) => [n, e.script, e.part, e.contracts.flags.join(" | ")])).toEqual(
      [
        ["docker-compose-chat", "docker-compose.yml", "chat", "--served-model-name chat | --max-model-len 8192"],
        ["docker-compose-coder", "docker-compose.yml", "coder", "--served-model-name coder"],
      ],
    );
    repo.commit("config");
    const p = await run(repo.dir, "preflight", "--json");
    const report = JSON.parse(p.out) as { findings: { check: string; status: string; summary: string }[] };
    expect(report.findings.filter((f) => f.check === "preflight.bash-syntax")).toEqual([]);
    expect(report.findings.filter((f) => f.check === "preflight.contracts").map((f) => f.status)).toEqual([
      "pass",
      "pass",
    ]);
  });
});
