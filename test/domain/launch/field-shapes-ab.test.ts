// Shapes held-out round AB found, each written here in our own words: a Kubernetes `command:` of flags alone (it
// replaces the image's entrypoint: nothing starts); a Dockerfile whose ENTRYPOINT is a router (llama-swap) or the
// team's own binary on a plain base; a compose service running the image another service of the file builds; an
// inline `python3 -c` launcher that execs `vllm serve`.
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { buildFiles } from "../../../src/domain/launch/compose.js";

function compose(text: string, files: Record<string, string> = {}) {
  const builds = buildFiles(text, (p) => files[p] ?? null, "");
  return parseLaunchParts("compose", text, { builds, dir: "" }).map((p) => [p.name, p.script.engine?.kind ?? null]);
}

describe("a Kubernetes container whose command is flags only", () => {
  const pod = (key: string) =>
    [
      "apiVersion: v1",
      "kind: Pod",
      "metadata: {name: llm}",
      "spec:",
      "  containers:",
      "    - name: vllm",
      "      image: vllm/vllm-openai:v0.11.0",
      `      ${key}: ["--model", "/models/m", "--port", "8000"]`,
      "",
    ].join("\n");

  it("starts nothing (command replaces the entrypoint); the same words as args start vLLM", () => {
    const kinds = (text: string) => parseLaunchParts("kubernetes", text).map((p) => p.script.engine?.kind ?? null);
    expect(kinds(pod("command"))).toEqual([null]);
    expect(kinds(pod("args"))).toEqual(["vllm"]);
  });
});

describe("a built image's ENTRYPOINT that is no engine", () => {
  const svc =
    "services:\n  llm:\n    build: {context: ., dockerfile: Dockerfile}\n    image: llamacpp-server:1\n    command: [--port, '8080']\n";

  it("llama-swap on vLLM's image, or the team's binary on a plain base, starts none of the engines", () => {
    const swap = 'FROM vllm/vllm-openai:v0.11.0\nENTRYPOINT ["/usr/local/bin/llama-swap"]\n';
    expect(compose(svc, { Dockerfile: swap })).toEqual([["llm", null]]);
    const own =
      'FROM debian:bookworm-slim\nCOPY --from=build /src/llamaserver /app/\nENTRYPOINT ["/app/llamaserver"]\n';
    expect(compose(svc, { Dockerfile: own })).toEqual([["llm", null]]);
  });

  it("llama-server itself, or a program on the engine's own image, is still read as before", () => {
    const server =
      'FROM debian:bookworm-slim\nCOPY --from=b /app/llama-server /app/\nENTRYPOINT ["/app/llama-server"]\n';
    expect(compose(svc, { Dockerfile: server })).toEqual([["llm", "llama.cpp"]]);
  });
});

describe("a build's target stage", () => {
  it("is what runs, not the Dockerfile's last stage (W3's kengzzzz: server, then a completion tool)", () => {
    const df = [
      "FROM debian:bookworm-slim AS build",
      "FROM scratch AS server",
      'ENTRYPOINT ["/app/llama-server"]',
      "FROM scratch AS completion",
      'ENTRYPOINT ["/app/llama-completion"]',
      "",
    ].join("\n");
    const text = (target: string) =>
      `services:\n  llm:\n    build: {context: ., dockerfile: Dockerfile${target}}\n    image: llama-server\n    command: [-m, /m.gguf]\n`;
    expect(compose(text(", target: server"), { Dockerfile: df })).toEqual([["llm", "llama.cpp"]]);
    expect(compose(text(""), { Dockerfile: df })).toEqual([["llm", null]]);
  });
});

describe("a compose service on the image another service builds", () => {
  it("runs what that build makes, not what the tag's name suggests", () => {
    const text = [
      "services:",
      "  server:",
      "    build: {context: ., dockerfile: Dockerfile.server}",
      "    image: llamacpp-server:latest",
      "  bench-server:",
      "    image: llamacpp-server:latest",
      "    command: [--n-parallel, '4']",
      "",
    ].join("\n");
    const df = 'FROM debian:bookworm-slim\nENTRYPOINT ["/app/grpcserver"]\n';
    expect(compose(text, { "Dockerfile.server": df })).toEqual([
      ["server", null],
      ["bench-server", null],
    ]);
    // without the build, the tag's name is all there is
    expect(compose(text.replace("    build: {context: ., dockerfile: Dockerfile.server}\n", ""))).toEqual([
      ["server", "llama.cpp"],
      ["bench-server", "llama.cpp"],
    ]);
  });
});

describe("an inline python -c launcher", () => {
  it("starts the engine its program execs, flags unknown here; a program that only imports the engine starts none", () => {
    const text = (program: string) =>
      [
        "services:",
        "  app:",
        "    image: registry.example/team/app:1",
        "    entrypoint:",
        "      - /usr/bin/env",
        "      - python3",
        "      - -c",
        "      - |",
        ...program.split("\n").map((l) => `        ${l}`),
        "",
      ].join("\n");
    expect(compose(text('import os\nargs = [\n    "vllm",\n    "serve", "m"]\nos.execvp("vllm", args)'))).toEqual([
      ["app", "vllm"],
    ]);
    expect(compose(text("from vllm import LLM\nLLM('m').generate('hi')"))).toEqual([["app", null]]);
  });
});

describe("a continued command with notes in backquotes", () => {
  it("reads the words after a `# note` in backquotes as the same command (it expands to nothing)", () => {
    const script = [
      "docker run -d --name llm \\",
      "  `# numeric group ids: names resolve in the container` \\",
      "  --ipc=host --shm-size 16G \\",
      "  vllm/vllm-openai:v0.11.0 --model /m \\",
      "  `# TP 2 splits the model` \\",
      "  --tensor-parallel-size 2",
      "",
    ].join("\n");
    const s = parseLaunch("script", script);
    const run = s.podmanRuns[0]!;
    expect(run.options.map((o) => o.name)).toEqual(["--detach", "--name", "--ipc", "--shm-size"]);
    expect(run.image?.text).toBe("vllm/vllm-openai:v0.11.0");
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--model@4", "--tensor-parallel-size@6"]);
  });
});
