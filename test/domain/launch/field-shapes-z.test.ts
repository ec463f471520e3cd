// Launch shapes held-out round Z found, written here in our own words: a team image's program given as an absolute
// path into a bin directory (`/usr/local/bin/meshd start --config ...`) is a program, not a model path.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";

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
