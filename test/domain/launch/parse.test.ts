import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const archonText = readFileSync(join(import.meta.dirname, "../../fixtures/launch/scripts/serve-archon.sh"), "utf8");

/** The 1-based line of the first line containing `needle`: an oracle independent of the parser. */
function lineContaining(text: string, needle: RegExp): number {
  return text.split("\n").findIndex((l) => needle.test(l)) + 1;
}

describe("parseServeScript on the production archon script", () => {
  const s = parseServeScript(archonText);

  it("finds the engine podman run and reads the engine flags from the ARGS array", () => {
    expect(s.podmanRuns).toHaveLength(1);
    expect(s.engine?.source).toBe("podman");
    expect(s.engine?.podmanRun).toBe(s.podmanRuns[0]);
    expect(s.engine?.line).toBe(lineContaining(archonText, /^exec podman run/));
    const names = s.engine!.flags.map((f) => f.name);
    expect(names).toEqual([
      "--served-model-name",
      "--port",
      "--tensor-parallel-size",
      "--max-model-len",
      "--kv-cache-memory-bytes",
      "--max-num-seqs",
      "--gpu-memory-utilization",
      "--enable-prefix-caching",
      "--trust-remote-code",
      "--reasoning-parser",
      "--enable-auto-tool-choice",
      "--tool-call-parser",
      "--default-chat-template-kwargs",
      "--speculative-config",
    ]);
  });

  it("gives every flag the line it is written on", () => {
    for (const f of s.engine!.flags) {
      expect(f.line, f.name).toBe(lineContaining(archonText, new RegExp(`(^|\\s|\\()${f.name}(\\s|=|$)`)));
    }
  });

  it("keeps values as written, resolves the script's own defaults, and marks conditional flags optional", () => {
    const by = Object.fromEntries(s.engine!.flags.map((f) => [f.name, f]));
    expect(by["--max-model-len"]).toMatchObject({ value: "$MAXLEN", resolvedValue: "32768", optional: false });
    expect(by["--default-chat-template-kwargs"]).toMatchObject({ value: '{"enable_thinking": true}' });
    expect(by["--enable-auto-tool-choice"]).toMatchObject({ value: null });
    expect(by["--speculative-config"]?.optional).toBe(true);
    expect(s.engine!.podmanRun!.positional.map((w) => w.text)).toEqual(["/models"]);
  });

  it("reads podman options: env, volumes, devices, ulimits, ipc, name, publish and the image", () => {
    const run = s.podmanRuns[0]!;
    expect(run.env.map((e) => [e.name, e.value])).toEqual([
      ["HIP_VISIBLE_DEVICES", "0,1"],
      ["VLLM_ROCM_USE_AITER", "0"],
      ["VLLM_LOGGING_LEVEL", "${VLLM_LOGGING_LEVEL:-INFO}"],
    ]);
    expect(run.volumes.map((v) => [v.source, v.target, v.options, v.resolvedSource])).toEqual([
      ["$MODEL_DIR", "/models", "ro", "/home/dank/models/Qwen3.8-Flash-Next-FP8"],
      ["$CACHE_DIR", "/root/.cache", null, "/home/dank/.cache/frank-archon"],
    ]);
    expect(run.devices.map((d) => d.path)).toEqual(["/dev/kfd", "/dev/dri"]);
    expect(run.ulimits.map((u) => u.value)).toEqual(["memlock=-1:-1"]);
    expect([run.ipc, run.shmSize, run.name, run.publish, run.rm]).toEqual(["host", null, "$CTR", ["7770:7770"], false]);
    expect(run.image?.text).toBe("$IMAGE");
    expect(run.image?.resolved).toMatch(/^docker\.io\/tcclaviger\/vllm@sha256:/);
    expect(run.options.find((o) => o.name === "--secret")?.optional).toBe(true);
  });

  it("records top-level assignments, redirects and the || fallback of podman rm", () => {
    expect(s.assignments.map((a) => a.name)).toEqual([
      "CTR",
      "IMAGE",
      "MODEL_DIR",
      "CACHE_DIR",
      "MAXLEN",
      "SPEC",
      "ARGS",
      "ARGS",
    ]);
    const rm = s.commands.find((c) => c.words[1]?.text === "rm")!;
    expect(rm.redirects).toEqual([
      { op: ">", target: "/dev/null" },
      { op: "2>&1", target: "&1" },
    ]);
    expect(s.commands.some((c) => c.words[0]?.text === "true" && c.line === rm.line)).toBe(true);
  });
});

describe("parseServeScript: podman options", () => {
  it("finds the image after value-taking options in both --opt value and --opt=value forms", () => {
    const s =
      parseServeScript(`podman run -dit --rm --name=probe --log-driver journald --health-cmd "curl -f http://x/health" \\
  -e HF_HOME=/root/.cache/hf -e VLLM_LOGGING_LEVEL -p7770:7770 --network=host --entrypoint /bin/bash \\
  --mount type=bind,source=/srv/cache,target=/root/.cache,ro \\
  img:tag -c 'vllm serve /m'`);
    const run = s.podmanRuns[0]!;
    expect(run.image?.text).toBe("img:tag");
    expect(run.name).toBe("probe");
    expect(run.rm).toBe(true);
    expect(run.options.filter((o) => ["--detach", "--interactive", "--tty"].includes(o.name))).toHaveLength(3);
    expect(run.env).toEqual([
      { name: "HF_HOME", value: "/root/.cache/hf", line: 2 },
      { name: "VLLM_LOGGING_LEVEL", value: null, line: 2 },
    ]);
    expect(run.publish).toEqual(["7770:7770"]);
    expect(run.volumes).toEqual([{ source: "/srv/cache", target: "/root/.cache", options: "ro", line: 3 }]);
    expect(run.engineArgs.map((w) => w.text)).toEqual(["-c", "vllm serve /m"]);
  });

  it("puts the --rootfs directory where the image goes", () => {
    const run = parseServeScript(
      "podman run --rm --name eng --rootfs /var/lib/engine/rootfs /bin/node /app/engine.js --port 7770",
    ).podmanRuns[0]!;
    expect(run.image?.text).toBe("/var/lib/engine/rootfs");
    expect(run.engineFlags).toEqual([
      { name: "--port", value: "7770", line: 1, optional: false, resolvedValue: "7770" },
    ]);
    expect(run.positional.map((w) => w.text)).toEqual(["/bin/node", "/app/engine.js"]);
  });

  it("splits -v on colons outside ${...}", () => {
    const run = parseServeScript('podman run -v "${CACHE:-/var/cache/x}":/root/.cache:rw,z img').podmanRuns[0]!;
    expect(run.volumes[0]).toMatchObject({
      source: "${CACHE:-/var/cache/x}",
      target: "/root/.cache",
      options: "rw,z",
      resolvedSource: "/var/cache/x",
    });
  });
});

describe("parseServeScript: engine argv", () => {
  it("reads --flag value, --flag=value, switches, and positionals such as serve and the model", () => {
    const s = parseServeScript(
      "vllm serve /models/qwen --port=7770 --enforce-eager --max-num-seqs 4 --enable-prefix-caching --swap-space -1",
    );
    expect(s.engine?.source).toBe("vllm");
    expect(s.engine!.flags.map((f) => [f.name, f.value])).toEqual([
      ["--port", "7770"],
      ["--enforce-eager", null],
      ["--max-num-seqs", "4"],
      ["--enable-prefix-caching", null],
      ["--swap-space", "-1"],
    ]);
  });

  it("treats a flag followed by another flag as a switch, and `serve` after the image as positional", () => {
    const run = parseServeScript("podman run img serve /m --a --b 1 --c").podmanRuns[0]!;
    expect(run.engineFlags.map((f) => [f.name, f.value])).toEqual([
      ["--a", null],
      ["--b", "1"],
      ["--c", null],
    ]);
    expect(run.positional.map((w) => w.text)).toEqual(["serve", "/m"]);
  });

  it("reads an image that names the engine only in its tag, given a program to run, as that program", () => {
    const triton = parseServeScript(
      "docker run --gpus all --rm nvcr.io/nvidia/tritonserver:26.02-vllm-python-py3 tritonserver --model-repository /m",
    );
    expect(triton.engine).toBeNull();
    // the repository itself names the engine: its own entrypoint takes the flags
    expect(parseServeScript("docker run --gpus all vllm/vllm-openai:v0.10.0 --model m").engine?.kind).toBe("vllm");
    // a tag-only name with flags after it still reads as the engine
    expect(
      parseServeScript("docker run --gpus all myorg/llm:vllm-0.10 --model m --max-model-len 8192").engine?.kind,
    ).toBe("vllm");
  });

  it("takes no engine from a placeholder image, a bare `serve` subcommand, or a backend tag with no argv", () => {
    const engine = (cmd: string) => parseServeScript(cmd).engine?.kind ?? null;
    expect(engine("docker run -d binwiederhier/ntfy:latest serve")).toBeNull();
    expect(engine("docker run -d --gpus all REPLACE_WITH_SGLANG_IMAGE")).toBeNull();
    expect(engine("docker run -d --gpus all ${SGLANG_IMAGE:-sglang-placeholder}")).toBeNull();
    expect(engine("docker run -d --gpus all dsocr-server:vllm")).toBeNull();
    // an unknown image given vLLM's `serve MODEL`, and an engine image with no argv, still are
    expect(engine("docker run -d --gpus all myorg/llm serve Qwen/Qwen3-8B --port 8000")).toBe("vllm");
    expect(engine("docker run -d --gpus all lmsysorg/sglang:latest")).toBe("sglang");
  });

  it("reads the program distrobox enter runs after -- and the one toolbox run runs", () => {
    const d = parseServeScript("exec distrobox enter llama-rocm -- llama-server \\\n  -m /m.gguf \\\n  --port 8080\n");
    expect([d.engine?.kind, d.engine?.flags.map((f) => `${f.name}@${f.line}`)]).toEqual([
      "llama.cpp",
      ["-m@2", "--port@3"],
    ]);
    const t = parseServeScript("toolbox run -c llm vllm serve m --port 8000\n");
    expect(t.engine?.kind).toBe("vllm");
    // no `--`: distrobox enter opens a shell in the box and starts nothing
    expect(parseServeScript("distrobox enter llama-rocm\n").engine).toBeNull();
  });

  it("reads the program docker or podman exec runs in a container something else started", () => {
    const d = parseServeScript(
      'ARGS=(\n  "--port" "8080"\n  "--kv-cache-dtype" "fp8"\n)\ndocker exec -it -e A=1 $ID vllm serve $MODEL "${ARGS[@]}"\n',
    );
    expect([d.engine?.kind, d.engine?.flags.map((f) => `${f.name}@${f.line}`)]).toEqual([
      "vllm",
      ["--port@2", "--kv-cache-dtype@3"],
    ]);
    expect(parseServeScript("podman exec -l llama-server --port 8080\n").engine?.kind).toBe("llama.cpp");
    expect(
      parseServeScript("docker container exec -u root c python3 -m sglang.launch_server --port 1\n").engine?.kind,
    ).toBe("sglang");
    // a Python one-liner or a helper script run in the container starts no engine
    expect(parseServeScript('docker exec $ID python3 -c "import vllm"\n').engine).toBeNull();
    expect(parseServeScript("docker exec -it $ID bash /tmp/download_model.sh $MODEL\n").engine).toBeNull();
  });

  it("reads a launch in a function the file never calls as a library's, not the file's", () => {
    const lib =
      'run_llama_server() {\n  docker run --rm --gpus all ghcr.io/ggml-org/llama.cpp:server-cuda --port "${1:-8080}"\n}\n';
    expect(parseServeScript(`#!/bin/bash\n${lib}`).engine).toBeNull();
    expect(parseServeScript(`#!/bin/bash\n${lib}run_llama_server 9000\n`).engine?.kind).toBe("llama.cpp");
    // called from a case the defaults do not take is still called
    const cased = `#!/bin/bash\nstart() {\n  exec vllm serve m --port 8000\n}\ncase "$1" in start) start ;; esac\n`;
    expect(parseServeScript(cased).engine?.kind).toBe("vllm");
    // named only in a comment and in the text it prints (an env file to source): still uncalled
    const listed = `#!/bin/bash\n${lib}# then run: run_llama_server\necho "  - run_llama_server   # start it"\n`;
    expect(parseServeScript(listed).engine).toBeNull();
  });

  it("never reaches a launch below a foreground sleep infinity in the same block", () => {
    expect(parseServeScript("set -x\nsleep infinity\nvllm serve m --port 8000\n").engine).toBeNull();
    expect(parseServeScript("sleep inf; vllm serve m --port 8000\n").engine).toBeNull();
    // in the background, or inside a branch that is closed before the launch, it holds nothing back
    expect(parseServeScript("sleep infinity &\nvllm serve m --port 8000\n").engine?.kind).toBe("vllm");
    expect(
      parseServeScript('if [ "$DEBUG" = 1 ]; then\n  sleep infinity\nfi\nvllm serve m --port 8000\n').engine?.kind,
    ).toBe("vllm");
    expect(parseServeScript("tail -f /dev/null\npython3 -m sglang.launch_server --port 30000\n").engine).toBeNull();
  });

  it("picks the engine run over a --rm helper, wherever the helper is", () => {
    const s = parseServeScript(`podman run --rm --entrypoint bash img -c "ls -la /root/.cache"
podman run -d --name eng img /models --port 7770 --max-model-len 8192
podman run --rm img --version`);
    expect(s.engine?.line).toBe(2);
  });

  it("sees commands inside if/case/function bodies and $( ... )", () => {
    const s = parseServeScript(`start() {
  if [[ "$1" == fast ]]; then
    podman run -d --name a img --port 1
  fi
}
case "$MODE" in
  probe|bench) CID=$(podman run -d --name b img --port 2) ;;
  *) for i in 1 2; do podman logs a 2>&1 | grep -q ready && break; done ;;
esac
start fast`);
    expect(s.podmanRuns.map((r) => [r.name, r.command.line])).toEqual([
      ["a", 3],
      ["b", 7],
    ]);
    const logs = s.commands.find((c) => c.words[1]?.text === "logs")!;
    expect(logs.pipeTo?.words[0]?.text).toBe("grep");
    expect(s.commands.map((c) => c.words[0]?.text)).toContain("start");
  });

  it("ends a command at a comment line inside a continuation, as bash does", () => {
    const s = parseServeScript("podman run -d img /m \\\n  --port 1 \\\n  # --max-model-len 8192 \\\n  --dropped 1\n");
    expect(s.engine!.flags.map((f) => f.name)).toEqual(["--port"]);
    expect(s.commands.map((c) => c.words[0]?.text)).toEqual(["podman", "--dropped"]);
  });

  it('reads ${VAR:+--flag "$VAR"} as optional flags with the variable\'s default', () => {
    const s = parseServeScript(
      'PARSER=${PARSER:-qwen3}\nvllm serve /m ${PARSER:+--reasoning-parser "$PARSER"} --port 1',
    );
    expect(s.engine!.flags).toEqual([
      { name: "--reasoning-parser", value: "$PARSER", line: 2, optional: true, resolvedValue: "qwen3" },
      { name: "--port", value: "1", line: 2, optional: false, resolvedValue: "1" },
    ]);
  });

  it("inside ${VAR:+…} VAR is never its empty default: the value stays unknown instead of losing $VAR", () => {
    const s = parseServeScript(
      'SPEC=${SPEC:-}\nvllm serve /m ${SPEC:+--speculative-config "{\\"num_speculative_tokens\\": $SPEC}"} --port 1',
    );
    const spec = s.engine!.flags.find((f) => f.name === "--speculative-config")!;
    expect(spec).toMatchObject({ optional: true, value: '{"num_speculative_tokens": $SPEC}' });
    expect(spec.resolvedValue).toBeUndefined();
    const three = parseServeScript(
      'SPEC=${SPEC:-3}\nvllm serve /m ${SPEC:+--speculative-config "{\\"num_speculative_tokens\\": $SPEC}"}',
    );
    expect(three.engine!.flags[0]!.resolvedValue).toBe('{"num_speculative_tokens": 3}');
  });
});

describe("parseServeScript: arrays", () => {
  it('expands declare -a arrays, += appends and the set -u safe "${ARGS[@]:-}"', () => {
    const s = parseServeScript(`declare -a ARGS=(--port 7770)
ARGS+=(--max-model-len 8192)
EXTRA=()
podman run -d img /m "\${ARGS[@]}" "\${EXTRA[@]:-}"`);
    expect(s.engine!.flags.map((f) => [f.name, f.value, f.line])).toEqual([
      ["--port", "7770", 1],
      ["--max-model-len", "8192", 2],
    ]);
  });

  it("leaves an array it never saw assigned as one dynamic word", () => {
    const run = parseServeScript('podman run -d img "${ENGINE_ARGS[@]}"').podmanRuns[0]!;
    expect(run.engineArgs.map((w) => [w.text, w.dynamic])).toEqual([["${ENGINE_ARGS[@]}", true]]);
  });
});

describe("a string variable that takes words before its earlier value", () => {
  it('keeps the earlier words, at their lines, where `args="--port 9000 $args"` names them', () => {
    const text = [
      'args="--host 0.0.0.0 --jinja"',
      'if [[ "$args" != *"--port"* ]]; then',
      '  args="--port 9000 $args"',
      "fi",
      "exec llama-server -m /models/m.gguf $args",
    ].join("\n");
    const flags = parseServeScript(text).engine!.flags.map((f) => `${f.name}@${f.line}`);
    expect(flags).toEqual(["-m@5", "--port@3", "--host@1", "--jinja@1"]);
  });
});
