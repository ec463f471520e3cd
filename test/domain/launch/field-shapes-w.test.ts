// Launch shapes held-out round W found, written here in our own words: the llama-cpp-python binding's image (its own
// server, not llama-server); a manifest that starts with a byte-order mark; compose's top-level `include:`; and what
// `tty: true` does not tell (a local image's engine is read by its name).
import { describe, expect, it } from "vitest";
import { parseLaunchParts, yamlKind } from "../../../src/domain/launch/launch.js";
import { includedFiles } from "../../../src/domain/launch/compose-include.js";

const kinds = (kind: "compose" | "kubernetes", text: string) =>
  parseLaunchParts(kind, text).map((p) => p.script.engine?.kind ?? null);

describe("containers that name an engine and run something else", () => {
  it("llama-cpp-python's image is no llama.cpp server; llama.cpp's own is", () => {
    const svc = (image: string) => `services:\n  chat:\n    image: ${image}\n    command: --port 8000 -m /m.gguf\n`;
    expect(kinds("compose", svc("llama-cpp-python:cuda"))).toEqual([null]);
    expect(kinds("compose", svc("ghcr.io/ggml-org/llama.cpp:server"))).toEqual(["llama.cpp"]);
  });

  it("`tty: true` on a local image with no command stays the engine its name says (its Dockerfile is unread)", () => {
    // set M1's llama-cpp-docker service (LLAMA_ARG_* settings, tty) is llama-server; W3's notebook image named
    // llamacpp:rag is not, which only its Dockerfile tells: both are read by name
    const svc = `services:\n  llama:\n    image: llama-cpp-docker\n    tty: true\n    ports:\n      - "8080:8080"\n`;
    expect(kinds("compose", svc)).toEqual(["llama.cpp"]);
  });
});

describe("a manifest that starts with a byte-order mark", () => {
  it("is a Kubernetes manifest, its container read at the lines the file has", () => {
    const text =
      '\uFEFFapiVersion: apps/v1\nkind: Deployment\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n      containers:\n      - name: v\n        image: vllm/vllm-openai:v0.11.0\n        args: [--port, "8000"]\n';
    expect(yamlKind("k8s/v.yaml", text)).toBe("kubernetes");
    const parts = parseLaunchParts("kubernetes", text);
    expect(parts[0]?.script.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--port@10"]);
  });
});

describe("compose's include:", () => {
  it("lists the included files as repository paths, short and long forms, never outside the repository", () => {
    const text = "include:\n  - llama/compose.yml\n  - path: [a.yml, ../up.yml]\n  - path: b/c.yml\n";
    expect(includedFiles(text, "deploy")).toEqual([
      "deploy/llama/compose.yml",
      "deploy/a.yml",
      "up.yml",
      "deploy/b/c.yml",
    ]);
    expect(includedFiles(text, "")).toEqual(["llama/compose.yml", "a.yml", "b/c.yml"]);
    expect(includedFiles("services:\n  a:\n    image: x\n", "")).toEqual([]);
  });
});
