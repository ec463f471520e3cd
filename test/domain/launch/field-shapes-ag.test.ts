// A shape held-out round AG found, written here in our own words: the engine program held in a variable that the
// script's own lookup function fills (`BIN=$(pick_binary "$@")`), where every path the function tries, every
// program it probes and every engine variable it echoes name one engine program.
import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";

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
