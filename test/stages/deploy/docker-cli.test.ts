// A serve script that starts its engine with `docker run`: deploy's poll and verify's facts ask docker
// (real sh, stand-ins printing docker's own output forms), podman otherwise.
import { describe, expect, it } from "vitest";
import { shWith, stubBins } from "../../helpers/stub-bin.js";
import { hostFactsScript } from "../../../src/stages/deploy/diagnose-host.js";
import { pollScript } from "../../../src/stages/deploy/poll-command.js";
import { parsePoll } from "../../../src/stages/deploy/poll-parse.js";
import { containerCli } from "../../../src/domain/launch/container-cli.js";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { buildFactsScript } from "../../../src/stages/verify/facts-script.js";
import { parsePodmanTime } from "../../../src/domain/host-output.js";
import { parseFacts } from "../../../src/stages/verify/facts-parse.js";

const ID = "9c".repeat(32);
const bin = stubBins("dg-docker-");
const sh = shWith;
const SYSTEMCTL = "echo ActiveState=active; echo SubState=running; echo NRestarts=0";

describe("containerCli", () => {
  it("docker for a docker run script, podman for podman, a quadlet or no script", () => {
    expect(
      containerCli(
        parseLaunch(
          "script",
          "#!/bin/bash\nexec docker run --rm --runtime nvidia --gpus all --name llm -p 8000:8000 vllm/vllm-openai:v0.10.2 --model Qwen/Qwen3-8B\n",
        ),
      ),
    ).toBe("docker");
    expect(
      containerCli(
        parseLaunch(
          "script",
          "#!/bin/bash\nexec podman run --rm --name llm docker.io/vllm/vllm-openai:v0.10.2 --model Qwen/Qwen3-8B\n",
        ),
      ),
    ).toBe("podman");
    expect(
      containerCli(
        parseLaunch("quadlet", "[Container]\nImage=docker.io/vllm/vllm-openai:v0.10.2\nExec=--model Qwen/Qwen3-8B\n"),
      ),
    ).toBe("podman");
    expect(containerCli(null)).toBe("podman");
  });
});

describe("deploy's poll under docker", () => {
  it("asks docker, and reads docker's RFC 3339 Created", () => {
    const b = bin({
      systemctl: SYSTEMCTL,
      journalctl: "exit 1",
      podman: "echo podman-was-called; exit 1",
      docker: `[ "$1 $2" = "container inspect" ] && echo "${ID} running 0 2026-11-29T21:23:48.375834661Z"`,
    });
    const p = parsePoll(
      sh(pollScript({ service: "llm.service", container: "llm", cursor: null, sinceHostS: 0, cli: "docker" }), b),
    );
    expect(p.errors).toEqual([]);
    expect(p.container).toEqual({
      id: ID,
      state: "running",
      exitCode: 0,
      createdAtMs: parsePodmanTime("2026-11-29 21:23:48.375834661 +0000 UTC"),
    });
  });

  it("docker's `[]` and `Error: No such container` (exit 1) are no container yet, not a failed poll", () => {
    const b = bin({
      systemctl: SYSTEMCTL,
      journalctl: "exit 1",
      docker: `echo "[]"; echo "Error: No such container: llm" >&2; exit 1`,
    });
    const p = parsePoll(
      sh(pollScript({ service: "llm.service", container: "llm", cursor: null, sinceHostS: 0, cli: "docker" }), b),
    );
    expect(p.container).toBeNull();
    expect(p.errors).toEqual([]);
  });

  it("an offset in the RFC 3339 form is honoured", () => {
    expect(parsePodmanTime("2026-11-29T23:23:48+02:00")).toBe(Date.UTC(2026, 10, 29, 21, 23, 48));
  });
});

describe("verify's facts under docker", () => {
  it("inspect and the /proc fallback go to docker; docker's `/NAME` reads as NAME", () => {
    // docker prints its inspect JSON indented by 4, as podman does
    const inspect = JSON.stringify(
      [
        {
          Id: ID,
          Name: "/llm",
          Created: "2026-11-29T21:23:48.375834661Z",
          State: { Status: "running", Running: true, Pid: 0, StartedAt: "2026-11-29T21:23:49.1Z" },
          Config: { Env: ["HF_HOME=/models"] },
        },
      ],
      null,
      4,
    );
    const b = bin({
      docker: `case "$1" in inspect) [ "$2 $3 $4" = "--type container llm" ] && cat <<'JSON'\n${inspect}\nJSON\n;; exec) [ "$2 $3 $4" = "llm cat /proc/1/cmdline" ] && printf 'vllm\\0serve\\0Qwen/Qwen3-8B\\0';; esac`,
      podman: "exit 1",
      journalctl: "exit 0",
    });
    const { script, marker } = buildFactsScript({ endpoint: "e", service: null, container: "llm", cli: "docker" });
    const f = parseFacts(sh(script, b), marker);
    expect(f.container).toMatchObject({ id: ID, name: "llm", status: "running", running: true });
    expect(f.argv).toEqual(["vllm", "serve", "Qwen/Qwen3-8B"]);
    expect(f.env?.get("HF_HOME")).toBe("/models");
  });
});

describe("the image lookup of a failed docker pull", () => {
  it("lists docker's images, podman's for podman", () => {
    const docker = hostFactsScript(
      {
        kind: "runtime-error",
        layer: "docker",
        priority: 5,
        facts: { what: "image-not-found", image: "vllm/vllm-openai:v0.10.9" },
      },
      "llm.service",
    );
    expect(docker).toContain("docker images --format");
    const podman = hostFactsScript(
      { kind: "runtime-error", layer: "podman", priority: 5, facts: { what: "image-not-found", image: "x" } },
      "llm.service",
    );
    expect(podman).toContain("podman images --format");
  });
});
