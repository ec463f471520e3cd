// Script shapes held-out round AA found, in our own words: a script whose two launches are chosen by whether it runs
// inside a container (`[ -f /.dockerenv ]`) is read as its users run it from the repository, on a host.
import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { evalTest } from "../../../src/domain/launch/default-branch.js";

describe("a launch chosen by a container's marker file", () => {
  const script = (test: string) =>
    [
      "#!/bin/bash",
      `if ${test}; then`,
      "  python3 -m vllm.entrypoints.openai.api_server --model m --port 8000 \\",
      "    --enable-prefix-caching --max-num-seqs 64",
      "else",
      "  python3 -m vllm.entrypoints.openai.api_server --model m --port 8000",
      "fi",
      "",
    ].join("\n");

  it("takes the host's branch: docker's /.dockerenv and podman's /run/.containerenv are not there", () => {
    for (const test of ["[ -f /.dockerenv ]", '[[ -e "/run/.containerenv" ]]']) {
      expect(parseLaunch("script", script(test)).engine?.command.line).toBe(6);
    }
    expect(evalTest("[ -f /.dockerenv ]", new Map())).toBe(false);
    // any other file stays unknown: the script may make it
    expect(evalTest("[ -f /tmp/ready ]", new Map())).toBeNull();
  });
});
