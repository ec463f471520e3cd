// Shapes held-out round AE found, each written here in our own words: an engine program taken from the caller's
// environment through a variable with an empty default (`_BIN=${LLAMA_SERVER_BIN:-""}`, and the self-referencing
// `LLAMA_SERVER_BIN=${LLAMA_SERVER_BIN:-""}`), and a flag string made of other flag strings, each flag at the line
// that wrote it; a container runtime held in a variable (`"${RUNTIME}" run`, RUNTIME=docker or podman by probe).
import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";

const engine = (text: string) => {
  const e = parseLaunch("script", text).engine;
  return e ? { kind: e.kind, flags: e.flags.map((f) => `${f.name}@${f.line}`) } : null;
};

describe("an engine program the caller's environment names", () => {
  const body = (assign: string, run: string) =>
    ["#!/bin/bash", assign, '[ -z "${BIN}" ] && exit 1', 'P="--threads 8 --port 8080"', `${run} \${P}`, ""].join("\n");

  it("is the program its variable's name says, quoted or not, through a copy or itself", () => {
    const want = { kind: "llama.cpp", flags: ["--threads@4", "--port@4"] };
    expect(engine(body('_BIN=${LLAMA_SERVER_BIN:-""}', "${_BIN}").replaceAll("${BIN}", "${_BIN}"))).toEqual(want);
    expect(engine(body('_BIN=${LLAMA_SERVER_BIN:-""}', '"${_BIN}"').replaceAll("${BIN}", "${_BIN}"))).toEqual(want);
    const self = body('LLAMA_SERVER_BIN=${LLAMA_SERVER_BIN:-""}', "${LLAMA_SERVER_BIN}");
    expect(engine(self.replaceAll("${BIN}", "${LLAMA_SERVER_BIN}"))).toEqual(want);
    expect(engine(body('VLLM_BIN=${VLLM_BIN:-""}', '"$VLLM_BIN" serve m'))?.kind).toBe("vllm");
  });

  it("is nothing when the name says no engine, or the default names another program", () => {
    expect(engine(body('_BIN=${MY_TOOL:-""}', "${_BIN}"))).toBeNull();
    expect(engine(body("_BIN=${LLAMA_SERVER_BIN:-/usr/bin/true}", "${_BIN}"))).toBeNull();
  });
});

describe("a flag string made of other flag strings", () => {
  it("keeps each flag at the line that wrote it, the plain words at the composite's", () => {
    const text = [
      "#!/bin/bash",
      'KEEP="--keep -1"',
      'PREDICT="--predict -1"',
      'CTX="${KEEP} ${PREDICT} --jinja"',
      "llama-server -m /m.gguf ${CTX}",
      "",
    ].join("\n");
    expect(engine(text)?.flags).toEqual(["-m@5", "--keep@2", "--predict@3", "--jinja@4"]);
  });

  it("reads a string that names an unknown variable as before: at its own line", () => {
    const text = ["#!/bin/bash", 'CTX="${KEEP} --jinja"', "llama-server -m /m.gguf ${CTX}", ""].join("\n");
    expect(engine(text)?.flags).toEqual(["-m@3", "--jinja@2"]);
  });
});

describe("a container runtime held in a variable", () => {
  it("is a run of the runtime it holds, set plainly or by an if/elif probe", () => {
    const run = '"${RUNTIME}" run -d --name x vllm/vllm-openai:latest --model m --port 8000';
    const plain = ["#!/bin/bash", "RUNTIME=docker", run, ""].join("\n");
    expect(engine(plain)).toEqual({ kind: "vllm", flags: ["--model@3", "--port@3"] });
    const probed = [
      "#!/bin/bash",
      'RUNTIME=""',
      "if command -v docker >/dev/null 2>&1; then",
      '  RUNTIME="docker"',
      "elif command -v podman >/dev/null 2>&1; then",
      '  RUNTIME="podman"',
      "fi",
      `MSYS_NO_PATHCONV=1 ${run}`,
      "",
    ].join("\n");
    expect(engine(probed)?.kind).toBe("vllm");
    expect(parseLaunch("script", probed).podmanRuns.length).toBe(1);
  });

  it("is no run when the variable holds another program", () => {
    const other = ["#!/bin/bash", "RUNTIME=echo", '"$RUNTIME" run -d vllm/vllm-openai:latest --model m', ""].join("\n");
    expect(parseLaunch("script", other).podmanRuns).toEqual([]);
  });
});

describe("allenporter/llama-cpp-server images (set AF2)", () => {
  it("run llama-cpp-python's own server, not llama.cpp's llama-server", () => {
    const run = (image: string) => parseLaunch("script", `#!/bin/bash\ndocker run -d -p 8000:8000 ${image}\n`).engine;
    expect(run("ghcr.io/allenporter/llama-cpp-server-cpu:main")).toBeNull();
    expect(run("ghcr.io/allenporter/llama-cpp-server-cuda:v2.1")).toBeNull();
    expect(run("ghcr.io/ggml-org/llama.cpp:server")?.kind).toBe("llama.cpp");
  });
});
