// Launch shapes held-out round Z found, written here in our own words: a team image's program given as an absolute
// path into a bin directory (`/usr/local/bin/meshd start --config ...`) is a program, not a model path.
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { evalTest } from "../../../src/domain/launch/default-branch.js";
import { normalizeFlagName } from "../../../src/domain/launch/contract.js";

const kinds = (kind: "compose" | "kubernetes", text: string) =>
  parseLaunchParts(kind, text).map((p) => p.script.engine?.kind ?? null);

describe("a local image's program written as a path", () => {
  it("in a bin directory is the program the image runs, not a model served by vLLM", () => {
    const svc = (entry: string) => `services:\n  node:\n    image: official-mesh:latest\n    entrypoint: ${entry}\n`;
    expect(kinds("compose", svc('["/usr/local/bin/meshd", "start", "--config", "/config/a.yaml"]'))).toEqual([null]);
    expect(kinds("compose", svc('["/opt/app/bin/reddb"]'))).toEqual([null]);
    // a model path first, on an image nothing else names, still reads as vLLM's argv
    expect(kinds("compose", svc('["/models/qwen3-8b", "--port", "8000"]'))).toEqual(["vllm"]);
  });
});

describe("an option loop's variables when nothing is passed", () => {
  it("are unset: a [[ == pattern ]] test on one is false, its branch's flags off by default", () => {
    const text = [
      "while [ $# -gt 0 ]; do",
      '  case "$1" in',
      '    --extra=*) extra="${1#*=}" ;;',
      "  esac",
      "  shift",
      "done",
      "if [[ $extra == *parser* ]]; then",
      "  T=--enable-auto-tool-choice",
      "fi",
      "if [[ -n $extra ]]; then",
      "  P=--enable-prefix-caching",
      "fi",
      "vllm serve /m $T $P",
      "",
    ].join("\n");
    const flags = parseLaunch("script", text).engine!.flags.map((f) => `${f.name}${f.offDefault ? " (off)" : ""}`);
    expect(flags).toEqual(["--enable-auto-tool-choice (off)", "--enable-prefix-caching (off)"]);
  });

  it("a [[ ]] right side is a pattern (quoted parts literal), a [ ] one a string", () => {
    const env = new Map([["x", "a --tool-call-parser b"]]);
    expect(evalTest('[[ $x == *"tool-call-parser"* ]]', env, false)).toBe(true);
    expect(evalTest('[[ $x != *"tool-call-parser"* ]]', env, false)).toBe(false);
    expect(evalTest('[[ $x == *"tool"?"call"* ]]', env, false)).toBe(true);
    expect(evalTest("[ $x == *parser* ]", env, false)).toBe(false);
  });
});

describe("vLLM's respelt options", () => {
  it("--cuda-graph-sizes is the same setting as --cudagraph-capture-sizes (vLLM PR #26016)", () => {
    expect(normalizeFlagName("--cuda-graph-sizes")).toBe("--cudagraph-capture-sizes");
    expect(normalizeFlagName("--cuda_graph_sizes")).toBe("--cudagraph-capture-sizes");
    expect(normalizeFlagName("--cudagraph-capture-sizes")).toBe("--cudagraph-capture-sizes");
  });
});

describe("a unit whose program runs the engine's container", () => {
  const unit = (description: string, pre: string) =>
    [
      "[Unit]",
      `Description=${description}`,
      "Requires=docker.service",
      "[Service]",
      pre,
      "ExecStart=/usr/local/bin/slotctl launch %i",
      "Restart=on-failure",
      "",
    ].join("\n");
  it("is that engine in docker when it first removes the container its Description names", () => {
    const e = parseLaunch(
      "unit",
      unit("slot %i (vLLM container vllm-%i)", "ExecStartPre=-/usr/bin/docker rm -f vllm-%i"),
    ).engine;
    expect([e?.kind, e?.runtime, e?.flags.length, e?.builtBy]).toEqual([
      "vllm",
      "docker",
      0,
      "/usr/local/bin/slotctl launch %i",
    ]);
  });
  it("is none without that removal, or when the removed container is another's", () => {
    expect(parseLaunch("unit", unit("slot %i (vLLM container vllm-%i)", "")).engine).toBeNull();
    expect(
      parseLaunch("unit", unit("slot %i (vLLM container vllm-%i)", "ExecStartPre=-/usr/bin/docker rm -f redis")).engine,
    ).toBeNull();
    expect(
      parseLaunch(
        "unit",
        unit("metrics exporter for the vLLM container vllm-%i", "ExecStartPre=-/usr/bin/docker rm -f vllm-%i"),
      ).engine,
    ).toBeNull();
  });
});
