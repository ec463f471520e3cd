// Shapes of real launch files that the first field run (set A) misread, each written here in our own words.
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { droppedFlags } from "../../../src/stages/preflight/dropped-flags.js";
import { findFlag } from "../../../src/domain/launch/contract.js";

/** A Deployment up to its containers list (7 lines): the container follows on line 8. */
const deployment = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  template:\n    spec:\n      containers:\n`;
const names = (flags: { name: string; line: number }[] | undefined) => flags?.map((f) => `${f.name}@${f.line}`);

describe("scripts", () => {
  it("reads `eval $CMD` where CMD holds the command, not the appended branch that starts from $CMD", () => {
    const s = parseServeScript(`#!/bin/bash
start() {
  CMD="python -m vllm.entrypoints.openai.api_server \\
    --model m \\
    --port 8000"
  if [ "$x" = on ]; then
    CMD="$CMD --kv-cache-dtype fp8"
  fi
  eval $CMD > /tmp/log 2>&1 &
}
start
`);
    expect(s.engine?.kind).toBe("vllm");
    // each flag on its own line; the one added under a condition is optional
    expect(names(s.engine?.flags.filter((f) => !f.optional))).toEqual(["--model@4", "--port@5"]);
    expect(names(s.engine?.flags.filter((f) => f.optional))).toEqual(["--kv-cache-dtype@7"]);
  });

  it('reads `exec "$BIN" --flags` as the program the variable names, with the flags after it', () => {
    const s = parseServeScript(
      '#!/bin/bash\nBIN="$HOME/llama.cpp/build/bin/llama-server"\nexec "$BIN" \\\n  --port 8001\n',
    );
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(names(s.engine?.flags)).toEqual(["--port@4"]);
  });
});

describe("images and unknown images", () => {
  it("does not take an application named after an engine (a Gradio RAG UI) for the engine", () => {
    const text = `${deployment("ui")}        - name: server
          image: quay.io/x/gradio-rag-vllm-pgvector:0.0.1
          env: [{name: INFERENCE_SERVER_URL, value: "http://vllm:8000"}]
`;
    expect(parseLaunchParts("kubernetes", text).map((p) => p.script.engine)).toEqual([null]);
  });

  it("an unknown image told to run a script (`entrypoint: /cron.sh`) runs that script, not a model", () => {
    const compose = "services:\n  cron:\n    image: nextcloud:33.0.7-apache\n    entrypoint: /cron.sh\n";
    expect(parseLaunchParts("compose", compose).map((p) => p.script.engine)).toEqual([null]);
    // a model path first still reads as vLLM's argv
    const model = "services:\n  eng:\n    image: img\n    command: /models/qwen --port 7770\n";
    expect(parseLaunchParts("compose", model).map((p) => p.script.engine?.kind)).toEqual(["vllm"]);
  });

  it("a container's wrapper script followed by the engine command (`/launch-cluster.sh vllm serve ...`) runs it", () => {
    const compose =
      "services:\n  eng:\n    image: nvcr.io/nvidia/pytorch:25.01\n    command: /launch-cluster.sh vllm serve m --port 8000\n";
    expect(parseLaunchParts("compose", compose).map((p) => p.script.engine?.flags.map((f) => f.name))).toEqual([
      ["--port"],
    ]);
  });

  it("reads an unknown image whose argv carries llama.cpp's flags as llama-server, not vLLM", () => {
    const q =
      "[Container]\nImage=localhost/llama-vulkan:latest\nExec=--host 0.0.0.0 --n-gpu-layers 99 --ctx-size 8192\n";
    expect(parseLaunch("quadlet", q).engine?.kind).toBe("llama.cpp");
  });
});

describe("quadlets podman rejects", () => {
  it("reports a misspelt [Container] key as the reason nothing starts, and reads no flag from it", () => {
    const q = "[Container]\nImage=ghcr.io/ggml-org/llama.cpp:server\nEeec=-m /models/q.gguf -c 8192\n";
    const s = parseLaunch("quadlet", q);
    expect(s.engine).toBeNull();
    expect(s.unreadable).toMatch(/Eeec= \(line 3\).*did you mean Exec=/);
    expect(s.unreadableFix).toMatch(/rename Eeec= to Exec= on line 3/);
  });

  it("leaves a key it does not know but that is no near miss alone (a newer podman may know it)", () => {
    const q = "[Container]\nImage=docker.io/vllm/vllm-openai:v0.10.1\nFutureOptionXyz=1\nExec=--model m\n";
    expect(parseLaunch("quadlet", q).engine?.kind).toBe("vllm");
  });
});

describe("YAML strings folded onto one line", () => {
  it("puts each flag of a multi-line quoted sh -c string on the line it is written on", () => {
    const text = `${deployment("d")}        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          command:
            - sh
            - -c
            - "bash /x/ray-start.sh leader;
               python3 -m vllm.entrypoints.openai.api_server --port 8080
               --model m"
`;
    expect(names(parseLaunchParts("kubernetes", text)[0]!.script.engine?.flags)).toEqual(["--port@14", "--model@15"]);
  });

  it("finds a renamed container's part at another commit when the file has one engine", () => {
    const at = (name: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: vllm/vllm-openai:latest\n          args: ["--lora-modules", "a=b"]\n`;
    expect(names(parseLaunch("kubernetes", at("lora"), { part: "Deployment/d/vllm" }).engine?.flags)).toEqual([
      "--lora-modules@10",
    ]);
  });
});

describe("dropped-flags", () => {
  it("takes -max-model-len respelt as --max-model-len for a typo fixed, not a drop", () => {
    const f = (name: string) => ({ name, value: "4096", line: 3, optional: false });
    const out = droppedFlags([f("-max-model-len")], [f("--max-model-len")], "d.yaml", "base");
    expect(out.map((x) => x.status)).toEqual(["pass"]);
  });
});

describe("entry points and flag spellings", () => {
  it("reads SGLang's own CLI, sglang serve", () => {
    const s = parseServeScript("#!/bin/bash\nsglang serve --model-path Qwen/Qwen3-8B --port 30000\n");
    expect(s.engine?.kind).toBe("sglang");
    expect(names(s.engine?.flags)).toEqual(["--model-path@2", "--port@2"]);
  });

  it("checks a dotted contract against a JSON flag, and a JSON contract against dotted flags", () => {
    const json = parseServeScript(
      `#!/bin/bash\nvllm serve m --speculative-config '{"method": "mtp", "num_speculative_tokens": 2}'\n`,
    );
    expect(findFlag(json.engine!.flags, "--speculative-config.method mtp").status).toBe("present");
    expect(findFlag(json.engine!.flags, "--speculative-config.method eagle").status).toBe("value-differs");
    const dotted = parseServeScript(
      "#!/bin/bash\nvllm serve m --speculative-config.method mtp --speculative-config.num_speculative_tokens 2\n",
    );
    expect(
      findFlag(dotted.engine!.flags, `--speculative-config {"num_speculative_tokens":2,"method":"mtp"}`).status,
    ).toBe("present");
    expect(findFlag(dotted.engine!.flags, "--speculative-config.method=mtp").status).toBe("present");
  });
});

describe("heredocs", () => {
  it("reads the engine of a launcher the script writes with a heredoc, at the body's lines", () => {
    const s = parseServeScript(
      "#!/bin/bash\nset -e\ncat > /opt/llm/serve.sh <<'EOF'\n#!/bin/bash\nexec vllm serve /m \\\n  --port 8000\nEOF\nchmod +x /opt/llm/serve.sh\n",
    );
    expect(s.engine?.kind).toBe("vllm");
    expect(names(s.engine?.flags)).toEqual(["--port@6"]);
  });

  it("reads a unit written by a heredoc by its ExecStart=", () => {
    const s = parseServeScript(
      "#!/bin/bash\ntee /etc/systemd/system/llm.service <<EOF\n[Service]\nExecStart=/usr/local/bin/llama-server -m /m.gguf --port 8080\nRestart=always\nEOF\nsystemctl daemon-reload\n",
    );
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(names(s.engine?.flags)).toEqual(["-m@4", "--port@4"]);
  });
});

describe("launches in the branches of one if", () => {
  const script = (mode: string) =>
    `#!/bin/bash\nmode=\${1:-${mode}}\nif [ "$mode" = "hpu" ]; then\n  docker run -d --rm opea/vllm-gaudi --model m --block-size 128 --max-num-seqs 256\nelse\n  docker run -d --rm opea/vllm-cpu --model m --port 80\nfi\n`;

  it("reads the branch the script's defaults take, not the one with more flags", () => {
    expect(names(parseServeScript(script("cpu")).engine?.flags)).toEqual(["--model@6", "--port@6"]);
    expect(names(parseServeScript(script("hpu")).engine?.flags)).toEqual([
      "--model@4",
      "--block-size@4",
      "--max-num-seqs@4",
    ]);
  });
});

describe("launches in the branches of one case, or of an if on an empty test", () => {
  const byCase = (mode: string) =>
    `#!/bin/bash\nMODE=\${MODE:-${mode}}\ncase "$MODE" in\n  gpu|cuda)\n    vllm serve m --port 8000 --max-model-len 8192 --enable-prefix-caching\n    ;;\n  "cpu")\n    vllm serve m --port 8000\n    ;;\n  *)\n    echo "unknown mode $MODE" >&2; exit 2 ;;\nesac\n`;

  it("reads the branch whose pattern the default value matches", () => {
    expect(names(parseServeScript(byCase("cpu")).engine?.flags)).toEqual(["--port@8"]);
    expect(names(parseServeScript(byCase("cuda")).engine?.flags)).toEqual([
      "--port@5",
      "--max-model-len@5",
      "--enable-prefix-caching@5",
    ]);
  });

  it("takes the *) branch when no other pattern matches, and keeps the fuller launch when the value is unknown", () => {
    const star =
      "#!/bin/bash\nHW=${HW:-rocm}\ncase $HW in\n  cuda) vllm serve m --port 8000 --max-model-len 8192 --kv-cache-dtype fp8 ;;\n  *) vllm serve m --port 8000 ;;\nesac\n";
    expect(names(parseServeScript(star).engine?.flags)).toEqual(["--port@5"]);
    const unknown = star.replace("HW=${HW:-rocm}\n", "");
    expect(names(parseServeScript(unknown).engine?.flags)).toEqual([
      "--port@3",
      "--max-model-len@3",
      "--kv-cache-dtype@3",
    ]);
  });

  it('reads [ -z "$X" ] and [ -n "$X" ] against X\'s default, and `test` as `[`', () => {
    const empty = (assign: string, test: string) =>
      `#!/bin/bash\n${assign}\nif ${test}; then\n  vllm serve m --port 8000 --max-model-len 8192 --enable-prefix-caching\nelse\n  vllm serve m --port 8000 --lora-modules a=/a\nfi\n`;
    const first = ["--port@4", "--max-model-len@4", "--enable-prefix-caching@4"];
    const second = ["--port@6", "--lora-modules@6"];
    expect(names(parseServeScript(empty("LORA=${LORA:-}", '[ -z "$LORA" ]')).engine?.flags)).toEqual(first);
    expect(names(parseServeScript(empty("LORA=${LORA:-a}", '[ -z "$LORA" ]')).engine?.flags)).toEqual(second);
    expect(names(parseServeScript(empty("LORA=${LORA:-a}", '[ -n "$LORA" ]')).engine?.flags)).toEqual(first);
    expect(names(parseServeScript(empty("MODE=${MODE:-fast}", 'test "$MODE" = fast')).engine?.flags)).toEqual(first);
    // a variable the script never sets is empty unless someone passes it: [ -z ] holds, [ -n ] does not
    expect(names(parseServeScript(empty("", '[ -z "$LORA" ]')).engine?.flags)).toEqual(first);
    expect(names(parseServeScript(empty("", '[ -n "$LORA" ]')).engine?.flags)).toEqual(second);
  });
});

describe("after set B was scored (its figures are of the code before)", () => {
  it('reads `exec "$LLAMA_SERVER"` as llama-server when the file never assigns it (a sourced env file does)', () => {
    const s = parseServeScript(
      '#!/bin/bash\nset -a\nsource /etc/llama/llama-server.env\nset +a\nexec "$LLAMA_SERVER" \\\n  -m "$MODEL" \\\n  --port 8080\n',
    );
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(names(s.engine?.flags)).toEqual(["-m@6", "--port@7"]);
  });

  it("does not take an inference simulator image for the engine it imitates", () => {
    const text = `${deployment("sim")}        - name: sim\n          image: ghcr.io/llm-d/llm-d-inference-sim:v0.3.0\n          args: ["--model", "m", "--port", "8000"]\n`;
    expect(parseLaunchParts("kubernetes", text).map((p) => p.script.engine?.kind ?? null)).toEqual([null]);
  });
});
