// One launch model for every form: which engine, started by which runtime, with which argv (and lines).
import { describe, expect, it } from "vitest";
import { fileKind, parseLaunch } from "../../../src/domain/launch/launch.js";
import type { Engine } from "../../../src/domain/launch/model.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const engineOf = (text: string) => parseServeScript(text).engine;
const shape = (e: Engine | null) =>
  e
    ? {
        kind: e.kind,
        runtime: e.runtime,
        image: e.podmanRun?.image?.text ?? null,
        flags: e.flags.map((f) => `${f.name}@${f.line}`),
      }
    : null;

describe("launch model: scripts", () => {
  it("vllm serve behind nohup, with a redirect and &", () => {
    expect(shape(engineOf("#!/bin/bash\nnohup vllm serve /m \\\n  --port 8000 > log 2>&1 &\necho started\n"))).toEqual({
      kind: "vllm",
      runtime: "none",
      image: null,
      flags: ["--port@3"],
    });
  });

  it("python -m vllm.entrypoints... with env assignments in front, and through an interpreter variable", () => {
    expect(
      shape(
        engineOf(
          "CUDA_VISIBLE_DEVICES=0,1 python -m vllm.entrypoints.openai.api_server --model /m --max-model-len 8192\n",
        ),
      )?.flags,
    ).toEqual(["--model@1", "--max-model-len@1"]);
    const venv = `ROOT="$(cd "$(dirname "$0")" && pwd)"\nPYTHON_BIN="\${PYTHON_BIN:-$ROOT/.venv/bin/python}"\n"\${PYTHON_BIN}" -m vllm.entrypoints.openai.api_server \\\n  --model=/m --port=8003\n`;
    expect(shape(engineOf(venv))).toEqual({
      kind: "vllm",
      runtime: "none",
      image: null,
      flags: ["--model@4", "--port@4"],
    });
    const bin = `ROOT="$(pwd)"\nVLLM_BIN="$ROOT/.venv/bin/vllm"\n"$VLLM_BIN" serve /m --port 8001 &\n`;
    expect(shape(engineOf(bin))?.flags).toEqual(["--port@3"]);
  });

  it("expands flags collected in an array and in a string variable, each flag on the line that added it", () => {
    const arr = `PY=python3\nARGS=(\n  --model /m\n  --max-model-len 16384\n)\nexec $PY -m vllm.entrypoints.openai.api_server "\${ARGS[@]}"\n`;
    expect(shape(engineOf(arr))?.flags).toEqual(["--model@3", "--max-model-len@4"]);
    const str = `OPTIONS="--host 0.0.0.0"\nOPTIONS+=" --reasoning-parser qwen3"\nvllm serve /m $OPTIONS\n`;
    expect(shape(engineOf(str))?.flags).toEqual(["--host@1", "--reasoning-parser@2"]);
    // quoted, the variable stays one word: bash does not split it either
    expect(shape(engineOf(`OPTIONS="--a 1 --b 2"\nvllm serve /m "$OPTIONS"\n`))?.flags).toEqual([]);
  });

  it("a command built in CMD and run with eval", () => {
    const text = `MODEL=/m\nCMD="vllm serve \${MODEL} --port 1212"\nif [ -n "$X" ]; then\n  CMD+=" --max-model-len $X"\nfi\neval "\${CMD}"\n`;
    const e = engineOf(text)!;
    expect(e.kind).toBe("vllm");
    // the flag added under the if is optional: it is in the argv only when $X is set
    expect(e.flags.map((f) => [f.name, f.line, f.optional])).toEqual([
      ["--port", 2, false],
      ["--max-model-len", 4, true],
    ]);
  });

  it("SGLang and llama.cpp, including llama.cpp's pre-rename ./server", () => {
    expect(shape(engineOf("python3 -m sglang.launch_server --model-path /m --tp-size 2\n"))).toEqual({
      kind: "sglang",
      runtime: "none",
      image: null,
      flags: ["--model-path@1", "--tp-size@1"],
    });
    expect(shape(engineOf("cd ~/llama.cpp/build/bin\n./llama-server -m /m.gguf -ngl 99 --port 8080\n"))?.kind).toBe(
      "llama.cpp",
    );
    expect(shape(engineOf("cd llama.cpp\n./server -m /m.gguf -c 2048\n"))?.flags).toEqual(["-m@2", "-c@2"]);
    expect(engineOf("cd web\n./server --port 3000\n")).toBeNull();
  });

  it("docker run with value-taking options never mistakes a value for the image", () => {
    const text =
      "docker run --runtime nvidia --gpus '\"device=0,1\"' --shm-size 16g --env-file .env -e A=1 -v /a:/b --platform linux/amd64 --ulimit memlock=-1 \\\n  vllm/vllm-openai:v0.8.5 --model /m\n";
    expect(shape(engineOf(text))).toEqual({
      kind: "vllm",
      runtime: "docker",
      image: "vllm/vllm-openai:v0.8.5",
      flags: ["--model@2"],
    });
    expect(
      shape(engineOf("docker create --name v --restart unless-stopped vllm/vllm-openai --model /m\ndocker start v\n"))
        ?.runtime,
    ).toBe("docker");
    expect(parseServeScript("docker create --name v vllm/vllm-openai --model /m\n").podmanRuns[0]!.create).toBe(true);
  });

  it("an --entrypoint override, a program after the image, and a bash -c string", () => {
    expect(
      shape(
        engineOf(
          "docker run --entrypoint python3 vllm/vllm-openai -m vllm.entrypoints.openai.api_server --port=5000\n",
        ),
      )?.flags,
    ).toEqual(["--port@1"]);
    expect(
      shape(
        engineOf(
          "podman run --entrypoint /bin/sh docker.io/vllm/vllm-openai -c 'vllm serve /m --enable-auto-tool-choice'\n",
        ),
      ),
    ).toEqual({
      kind: "vllm",
      runtime: "podman",
      image: "docker.io/vllm/vllm-openai",
      flags: ["--enable-auto-tool-choice@1"],
    });
    expect(
      shape(
        engineOf(
          'docker run lmsysorg/sglang:latest \\\n  bash -c "python3 -m sglang.launch_server --model-path /m --port 30000"\n',
        ),
      ),
    ).toEqual({
      kind: "sglang",
      runtime: "docker",
      image: "lmsysorg/sglang:latest",
      flags: ["--model-path@2", "--port@2"],
    });
    expect(
      shape(engineOf("podman run --rm docker.io/rocm/vllm:latest vllm serve /m --max-model-len 8192\n"))?.flags,
    ).toEqual(["--max-model-len@1"]);
  });

  it('bash -c "$CMD": the string the script assigned, each flag on the line it was written', () => {
    const text = `CMD="\n  vllm serve /m \\\n    --port \\"8000\\" \\\n    --api-key sk-live-abc123\n"\nbash -c "\${CMD}" &\n`;
    expect(shape(engineOf(text))).toEqual({
      kind: "vllm",
      runtime: "none",
      image: null,
      flags: ["--port@3", "--api-key@4"],
    });
    expect(engineOf(text)?.flags[0]?.value).toBe("8000");
    // a value the script builds at run time is not a literal: the string stays unread, never misplaced
    expect(engineOf(`CMD=$(build_cmd)\nbash -c "$CMD"\n`)).toBeNull();
  });

  it('`set -- "$@" --flag` builds the argv of a later `exec vllm serve "$@"`; `set -- a b` replaces it', () => {
    const text = `MODEL=/m\nset -- "$@" --host 0.0.0.0 --port 8000\nif [ -n "$N" ]; then\n  set -- "$@" --served-model-name "$N"\nfi\nset -- "$@" --enable-prefix-caching\nexec vllm serve "$MODEL" "$@"\n`;
    expect(engineOf(text)!.flags.map((f) => [f.name, f.line, f.optional])).toEqual([
      ["--host", 2, false],
      ["--port", 2, false],
      ["--served-model-name", 4, true],
      ["--enable-prefix-caching", 6, false],
    ]);
    expect(
      engineOf(`set -- "$@" --port 1\nset -- --max-model-len 2\nvllm serve /m "$@"\n`)!.flags.map((f) => f.name),
    ).toEqual(["--max-model-len"]);
    // no set --: the caller's arguments, unknown
    expect(engineOf(`exec vllm serve /m "$@"\n`)!.flags).toEqual([]);
  });

  it("`$(fn)` unquoted, fn a function whose echo lines print flags: those flags, the ones under an if optional", () => {
    const text = `flags() {\n  echo "--max-model-len 16384"\n  echo --enable-prefix-caching\n  if [[ "$E" == 1 ]]; then\n    echo "--enforce-eager"\n  fi\n}\nexec vllm serve /m $(flags) --port 8000\n`;
    expect(engineOf(text)!.flags.map((f) => [f.name, f.line, f.optional])).toEqual([
      ["--max-model-len", 2, false],
      ["--enable-prefix-caching", 3, false],
      ["--enforce-eager", 5, true],
      ["--port", 8, false],
    ]);
    expect(
      engineOf(`function flags {\n  echo --port 1\n}\nvllm serve /m $(flags)\n`)!.flags.map((f) => f.name),
    ).toEqual(["--port"]);
  });

  it("the engine inside screen, tmux (a string or words, also typed by send-keys) and apptainer exec", () => {
    expect(
      shape(engineOf(`screen -dmS vllm bash -c "source v/bin/activate; exec nice -n 5 vllm serve /m --port 8000"\n`))
        ?.flags,
    ).toEqual(["--port@1"]);
    expect(shape(engineOf(`screen -d -m -S vllm -L -Logfile x.log vllm serve /m --port 1\n`))?.flags).toEqual([
      "--port@1",
    ]);
    expect(engineOf(`screen -S vllm -X quit\n`)).toBeNull();
    expect(
      shape(engineOf(`tmux new-session -d -s s -c /srv "vllm serve /m --max-model-len 4096 2>&1 | tee x.log"\n`))
        ?.flags,
    ).toEqual(["--max-model-len@1"]);
    expect(shape(engineOf(`tmux new -d -s s vllm serve /m --port 1\n`))?.flags).toEqual(["--port@1"]);
    expect(shape(engineOf(`tmux send-keys -t s "vllm serve /m --port 2" Enter\n`))?.flags).toEqual(["--port@1"]);
    expect(engineOf(`tmux kill-session -t s\ntmux attach -t s\n`)).toBeNull();
    expect(
      shape(engineOf(`apptainer exec --nv --bind /a:/a -B /b:/b img.sif vllm serve /m --tensor-parallel-size 4\n`)),
    ).toEqual({ kind: "vllm", runtime: "none", image: null, flags: ["--tensor-parallel-size@1"] });
    expect(engineOf(`singularity exec --nv img.sif python3 bench.py --port 1\n`)).toBeNull();
  });

  it("environment runners and CPU pinners in front of the engine", () => {
    expect(shape(engineOf("uv run --with vllm vllm serve /m --port 1\n"))?.flags).toEqual(["--port@1"]);
    // uv run's -m/--module runs the module as python -m does
    expect(shape(engineOf("uv run -m sglang.launch_server --model-path $M --tp 2\n"))).toMatchObject({
      kind: "sglang",
      flags: ["--model-path@1", "--tp@1"],
    });
    expect(shape(engineOf("uv run --module vllm.entrypoints.openai.api_server --port 1\n"))?.kind).toBe("vllm");
    expect(
      shape(engineOf("conda run -n vllm python -u -m vllm.entrypoints.openai.api_server --model /m\n"))?.flags,
    ).toEqual(["--model@1"]);
    expect(shape(engineOf("numactl -N 0 -m 0 taskset -c 0-15 vllm serve /m --port 1\n"))?.flags).toEqual(["--port@1"]);
    expect(
      shape(engineOf("podman run --rm quay.io/ramalama/cuda:latest llama-server --port 8080 -m /mnt/models/m.gguf\n")),
    ).toEqual({
      kind: "llama.cpp",
      runtime: "podman",
      image: "quay.io/ramalama/cuda:latest",
      flags: ["--port@1", "-m@1"],
    });
  });

  it("systemd-run wraps the engine; containers that are no inference server are not engines", () => {
    expect(
      shape(engineOf("systemd-run --unit x --property=Restart=always /opt/vllm/bin/vllm serve /m --port 8000\n"))
        ?.flags,
    ).toEqual(["--port@1"]);
    expect(engineOf("docker run -d --name pg -e POSTGRES_PASSWORD=pg -p 5432:5432 postgres:16\n")).toBeNull();
    expect(engineOf("podman run -d --name r docker.io/library/redis:7 redis-server --requirepass x\n")).toBeNull();
    expect(engineOf("docker run --gpus all lmsysorg/sglang python3 -m sglang.bench_serving --port 8000\n")).toBeNull();
    expect(engineOf("echo 'start it with: vllm serve /m --max-model-len 8192'\n")).toBeNull();
  });
});

describe("launch model: units and quadlets", () => {
  it("a unit's ExecStart= run directly (systemd) or through podman, with each continuation line's number", () => {
    const direct =
      "[Service]\nExecStart=/opt/venv/bin/vllm serve /m \\\n    --max-model-len 32768 \\\n    --port 8000\nRestart=always\n";
    expect(shape(parseLaunch("unit", direct).engine)).toEqual({
      kind: "vllm",
      runtime: "systemd",
      image: null,
      flags: ["--max-model-len@3", "--port@4"],
    });
    const podman =
      "[Service]\nExecStartPre=-/usr/bin/podman rm -f v\nExecStart=/usr/bin/podman run --name v docker.io/vllm/vllm-openai --model /m\n";
    expect(shape(parseLaunch("unit", podman).engine)).toEqual({
      kind: "vllm",
      runtime: "podman",
      image: "docker.io/vllm/vllm-openai",
      flags: ["--model@3"],
    });
    expect(parseLaunch("unit", "[Service]\nExecStart=/srv/env/bin/gunicorn --workers 3 app:app\n").engine).toBeNull();
  });

  it("a quadlet: Image=, Exec= (continued), PodmanArgs=, AddDevice=, Volume=, Environment=, ShmSize= as the podman run they generate", () => {
    const q = [
      "[Container]",
      "Image=docker.io/vllm/vllm-openai:v0.9.2",
      "ContainerName=vllm",
      "AddDevice=nvidia.com/gpu=all",
      "PodmanArgs=--ipc=host --ulimit memlock=-1:-1",
      "ShmSize=16g",
      'Environment=HF_HUB_OFFLINE=1 "B=two words"',
      "Volume=/srv/models:/models:ro,Z",
      "Exec=--model /models \\",
      "     --enable-prefix-caching",
      "",
      "[Service]",
      "Restart=always",
      "",
    ].join("\n");
    const s = parseLaunch("quadlet", q);
    expect(shape(s.engine)).toEqual({
      kind: "vllm",
      runtime: "quadlet",
      image: "docker.io/vllm/vllm-openai:v0.9.2",
      flags: ["--model@9", "--enable-prefix-caching@10"],
    });
    const run = s.engine!.podmanRun!;
    expect([run.name, run.ipc, run.shmSize, run.rm, run.replace]).toEqual(["vllm", "host", "16g", true, true]);
    expect(run.devices).toEqual([{ path: "nvidia.com/gpu=all", line: 4 }]);
    expect(run.ulimits).toEqual([{ value: "memlock=-1:-1", line: 5 }]);
    expect(run.env.map((e) => [e.name, e.value, e.line])).toEqual([
      ["HF_HUB_OFFLINE", "1", 7],
      ["B", "two words", 7],
    ]);
    expect(run.volumes).toMatchObject([{ source: "/srv/models", target: "/models", line: 8 }]);
    expect(
      shape(
        parseLaunch(
          "quadlet",
          "[Container]\nImage=ghcr.io/ggml-org/llama.cpp:server-cuda\nExec=-m /m.gguf --port 8080\n",
        ).engine,
      )?.kind,
    ).toBe("llama.cpp");
    expect(
      parseLaunch("quadlet", "[Container]\nImage=ghcr.io/open-webui/open-webui:main\nPublishPort=3000:8080\n").engine,
    ).toBeNull();
  });

  it("tells the kinds apart by name, then by content", () => {
    expect(fileKind("deploy/vllm.container", "")).toBe("quadlet");
    expect(fileKind("deploy/vllm.service", "[Service]\nExecStart=/x\n")).toBe("unit");
    expect(fileKind("serve.sh", "")).toBe("script");
    expect(fileKind("serve", "#!/bin/bash\n")).toBe("script");
    expect(fileKind("vllm.unit", "[Container]\nImage=x\n")).toBe("quadlet");
  });
});
