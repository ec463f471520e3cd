// Script shapes held-out round AA found, in our own words: a script whose two launches are chosen by whether it runs
// inside a container (`[ -f /.dockerenv ]`) is read as its users run it from the repository, on a host; a Flux
// HelmRelease whose values hold a quoted `{{ .Release.Name }}` (filled by the chart's tpl) is plain YAML, read.
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
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

describe("a HelmRelease whose values hold a string the chart fills", () => {
  const release = (host: string) =>
    [
      "apiVersion: helm.toolkit.fluxcd.io/v2",
      "kind: HelmRelease",
      "metadata: {name: llama}",
      "spec:",
      "  chartRef: {kind: OCIRepository, name: app-template}",
      "  values:",
      "    controllers:",
      "      llama:",
      "        containers:",
      "          app:",
      "            image: {repository: ghcr.io/ggml-org/llama.cpp, tag: server}",
      "            args: [--port, '8080', --jinja]",
      "    ingress:",
      "      app:",
      "        hosts:",
      `          - host: ${host}`,
      "",
    ].join("\n");

  it("reads the release when the {{ }} are inside quoted values; an unquoted one is still a template", () => {
    const [part] = parseLaunchParts("kubernetes", release('"{{ .Release.Name }}.example.org"'));
    expect([part!.script.engine?.kind, part!.script.unreadable]).toEqual(["llama.cpp", undefined]);
    const [tpl] = parseLaunchParts("kubernetes", release("{{ .Values.host }}"));
    expect(tpl!.script.unreadable).toMatch(/Helm template/);
  });
});
