// A shape held-out round AG found, written here in our own words: the engine program held in a variable that the
// script's own lookup function fills (`BIN=$(pick_binary "$@")`), where every path the function tries, every
// program it probes and every engine variable it echoes name one engine program.
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";

const script = (...body: string[]) =>
  [
    "#!/usr/bin/env bash",
    "pick_binary() {",
    ...body,
    '  echo ""',
    "}",
    'SRV=$(pick_binary "$@")',
    '[ -z "$SRV" ] && exit 2',
    '"$SRV" -m /models/q.gguf --ctx-size 8192 --port 8080',
    "",
  ].join("\n");
const engine = (text: string) => {
  const e = parseLaunch("script", text).engine;
  return e ? { kind: e.kind, flags: e.flags.map((f) => `${f.name}@${f.line}`) } : null;
};

describe("an engine program the script's own lookup function prints", () => {
  it("is that program when everything the function tries names it", () => {
    const text = script(
      '  if [ -n "${LLAMA_SERVER_BIN:-}" ]; then echo "$LLAMA_SERVER_BIN"; return; fi',
      "  # the usual build directories",
      '  for p in ./build/bin/llama-server "$HOME/llama.cpp/build/bin/llama-server"; do',
      '    [ -x "$p" ] && { echo "$p"; return; }',
      "  done",
      "  command -v llama-server",
    );
    expect(engine(text)).toEqual({ kind: "llama.cpp", flags: ["-m@13", "--ctx-size@13", "--port@13"] });
  });

  it("is nothing when the function can print another program, or is not the script's", () => {
    const two = script("  command -v llama-server || command -v llama-cli");
    expect(engine(two)).toBeNull();
    const python = script("  command -v python3");
    expect(engine(python)).toBeNull();
    const elsewhere = script("  :").replace('SRV=$(pick_binary "$@")', 'SRV=$(other_tool "$@")');
    expect(engine(elsewhere)).toBeNull();
  });
});

describe("an array append in a case arm the defaults skip (round AH's SAGA compose command)", () => {
  it("adds the flag off by default at its line, as an if-branch the defaults skip does", () => {
    const text = [
      "ARGS=(python3 -m sglang.launch_server --model-path m)",
      'case "${AUTO_TRUNCATE:-}" in 1|true|yes) ARGS+=(--allow-auto-truncate) ;; esac',
      'exec "${ARGS[@]}"',
      "",
    ].join("\n");
    const flags = parseLaunch("script", text).engine!.flags;
    expect(flags.map((f) => [f.name, f.line, f.offDefault ?? false])).toEqual([
      ["--model-path", 1, false],
      ["--allow-auto-truncate", 2, true],
    ]);
    // the arm the defaults take adds it on
    const on = parseLaunch("script", text.replace("${AUTO_TRUNCATE:-}", "${AUTO_TRUNCATE:-yes}")).engine!.flags;
    expect(on.find((f) => f.name === "--allow-auto-truncate")?.offDefault ?? false).toBe(false);
  });
});

describe("presets that call one launcher function with their own flags (round AH's SGLang script)", () => {
  const text = [
    "launch() {",
    '  exec python -m sglang.launch_server "$@"',
    "}",
    "small() {",
    "  launch --model-path org/small \\",
    "    --context-length 8192",
    "}",
    "big() {",
    "  launch --model-path org/small \\",
    "    --context-length 8192 --tp-size 2",
    "}",
    'case "${1:-}" in',
    '  launch) launch "$@" ;;',
    "  small) small ;;",
    "  big) big ;;",
    "esac",
    "",
  ].join("\n");

  it("are a launch each, in the order the presets are written, flags at the preset's lines", () => {
    const parts = parseLaunchParts("script", text).map((p) => [
      p.name,
      p.script.engine!.flags.map((f) => `${f.name}@${f.line}`),
    ]);
    expect(parts).toEqual([
      ["sglang #1", []],
      ["sglang #2", ["--model-path@5", "--context-length@6"]],
      ["sglang #3", ["--model-path@9", "--context-length@10", "--tp-size@10"]],
    ]);
  });
});

describe("an array set in both branches of an if the defaults cannot judge (round AH's dunesandbox)", () => {
  const text = (test: string) =>
    [
      'embedding="$5"',
      "base=(--attention-backend triton)",
      `if [[ ${test} == "true" ]]; then`,
      '  extra=(--is-embedding "${base[@]}" --context-length 512)',
      "else",
      '  extra=("${base[@]}")',
      "fi",
      'python -m sglang.launch_server --model-path m "${extra[@]}"',
      "",
    ].join("\n");
  const flags = (t: string) => parseLaunch("script", t).engine!.flags.map((f) => `${f.name}@${f.line}`);

  it("holds both branches' words, once each: either may run", () => {
    expect(flags(text('"$embedding"'))).toEqual([
      "--model-path@8",
      "--is-embedding@4",
      "--context-length@4",
      "--attention-backend@2",
    ]);
  });

  it("holds the branch the defaults take when they can judge the test", () => {
    expect(flags(text('"${EMB:-false}"'))).toEqual(["--model-path@8", "--attention-backend@2"]);
  });
});

describe("the words a unit hands the script (its positional parameters)", () => {
  const passed = ["big.gguf", "--no-mmap", "--swa-full"].map((text) => ({
    text,
    line: 7,
    optional: false,
    dynamic: false,
    file: "llm.service",
  }));
  const flags = (body: string) =>
    parseLaunch("script", `#!/bin/bash\n${body}\n`, { positional: passed }).engine!.flags.map(
      (f) => `${f.name}@${f.file ?? "script"}:${f.line}`,
    );

  it('reach the engine through "${@:2}" and a string holding it, at the unit\'s file and line', () => {
    expect(flags('llama-server -m "$1" --port 8080 "${@:2}"')).toEqual([
      "-m@script:2",
      "--port@script:2",
      "--no-mmap@llm.service:7",
      "--swa-full@llm.service:7",
    ]);
    expect(flags('EXTRA="${@:2}"\nllama-server --port 8080 $EXTRA')).toEqual([
      "--port@script:3",
      "--no-mmap@llm.service:7",
      "--swa-full@llm.service:7",
    ]);
  });

  it("are nothing the engine gets when the script does not hand them on", () => {
    expect(flags('MODEL="$1"\nllama-server -m "$MODEL" --port 8080')).toEqual(["-m@script:3", "--port@script:3"]);
  });
});
