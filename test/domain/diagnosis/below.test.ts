// Failures under the engine: every class from a real capture on the sandbox host (test/fixtures/journal/below-engine),
// and the wording variants of newer podman, docker, runc and systemd.
import { describe, expect, it } from "vitest";
import { belowOf, isNoise } from "../../../src/domain/diagnosis/below-engine.js";
import { belowAdvice } from "../../../src/domain/diagnosis/below-engine-advice.js";
import { explain } from "../../../src/commands/explain/sniff.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";

const below = (n: string) => explain(fixture(`../below-engine/${n}`));

describe("captured on the sandbox host", () => {
  it.each([
    [
      "args.journal.json",
      "engine-args",
      "vllm serve: error: argument --max-num-seqs: invalid value: 'many'",
      /--max-num-seqs/,
    ],
    [
      "arith.journal.json",
      "script-error",
      '/root/i14a/i14a-arith/serve.sh: line 5: GPUS + : syntax error: operand expected (error token is "+ ")',
      /line 5/,
    ],
    [
      "cgroups.journal.json",
      "runtime-error",
      "Error: crun: creating cgroup directory `/sys/fs/cgroup/pids/container`: No such file or directory: OCI runtime attempted to invoke a command that was not found",
      /podman run line/,
    ],
    [
      "cmdnf.journal.json",
      "script-error",
      "/root/i14a/i14a-cmdnf/serve.sh: line 4: podmn: command not found",
      /Fix podmn at line 4/,
    ],
    ["device.journal.json", "runtime-error", "Error: stat /dev/kfd: no such file or directory", /--device \/dev\/kfd/],
    [
      "exec.journal.json",
      "unit-error",
      "i14a-exec.service: Failed to locate executable /root/i14a/i14a-exec/serve.sh.sh: No such file or directory",
      /ExecStart= names \/root\/i14a\/i14a-exec\/serve\.sh\.sh/,
    ],
    [
      "exec2.journal.json",
      "unit-error",
      "i14a-exec2.service: Failed to locate executable serve-engine.sh: No such file or directory",
      /absolute path/,
    ],
    ["flag.journal.json", "runtime-error", "Error: unknown flag: --memroy", /Remove or correct --memroy/],
    [
      "image.journal.json",
      "runtime-error",
      'Error: initializing source docker://localhost/engine-dubble:latest: pinging container registry localhost: Get "https://localhost/v2/": dial tcp [::1]:443: connect: connection refused',
      /podman load/,
    ],
    [
      "image2.journal.json",
      "runtime-error",
      'Error: short-name "vllm/vllm-openai:v0.99.0" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"',
      /vllm\/vllm-openai:v0\.99\.0/,
    ],
    [
      "mode.journal.json",
      "unit-error",
      "i14a-mode.service: Failed to locate executable /root/i14a/i14a-mode/serve.sh: Permission denied",
      /0755/,
    ],
    [
      "mode.journal.txt",
      "unit-error",
      "i14a-mode.service: Failed to locate executable /root/i14a/i14a-mode/serve.sh: Permission denied",
      /0755/,
    ],
    [
      "mount.journal.json",
      "runtime-error",
      "Error: statfs /srv/i14a-missing/models: no such file or directory",
      /mkdir -p \/srv\/i14a-missing\/models/,
    ],
    [
      "name.journal.json",
      "runtime-error",
      /^Error: creating container storage: the container name "i14a-name" is already in use by [0-9a-f]{64}\./,
      /podman rm -f i14a-name/,
    ],
    [
      "ocinf.journal.json",
      "runtime-error",
      "Error: crun: executable file `vllm` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found",
      /no vllm on its PATH/,
    ],
    [
      "ociperm.journal.json",
      "runtime-error",
      "Error: crun: open executable: Permission denied: OCI permission denied",
      /entrypoint is executable/,
    ],
    [
      "port.journal.json",
      "runtime-error",
      "Error: cannot listen on the TCP port: listen tcp4 :7985: bind: address already in use",
      /7985/,
    ],
    [
      "shebang.journal.json",
      "unit-error",
      "i14a-shebang.service: Failed to execute /root/i14a/i14a-shebang/serve.sh: No such file or directory",
      /^Fix the first line of \/root\/i14a\/i14a-shebang\/serve\.sh \(the #! interpreter/,
    ],
    [
      "unset.journal.json",
      "script-error",
      "/root/i14a/i14a-unset/serve.sh: line 4: MODEL_DIR: unbound variable",
      /Environment=MODEL_DIR=/,
    ],
    [
      "user.journal.json",
      "unit-error",
      "i14a-user.service: Failed to determine user credentials: No such process",
      /useradd/,
    ],
  ])("%s -> %s", (name, cls, decisive, fix) => {
    const r = below(name);
    expect(r.class).toBe(cls);
    if (typeof decisive === "string") expect(r.decisive).toBe(decisive);
    else expect(r.decisive).toMatch(decisive);
    expect(r.fix).toMatch(fix);
    // Three starts under Restart=always: the loop is said beside the cause, never instead of it.
    expect(r.summary).toMatch(/crash loop: \d attempts ended/);
    expect(r.evidence.length).toBeGreaterThan(0);
  });
});

describe("wording variants of other versions", () => {
  it.each([
    // docker (moby) and runc
    [
      'docker: Error response from daemon: invalid mount config for type "bind": bind source path does not exist: /srv/models.',
      "runtime-error",
      "missing-mount-source",
      { path: "/srv/models" },
    ],
    [
      "docker: Error response from daemon: driver failed programming external connectivity on endpoint vllm (3f…): Bind for 0.0.0.0:8000 failed: port is already allocated.",
      "runtime-error",
      "port-in-use",
      { port: 8000 },
    ],
    [
      "Error response from daemon: pull access denied for vllm/vllm-opnai, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
      "runtime-error",
      "image-not-found",
      { image: "vllm/vllm-opnai" },
    ],
    [
      'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "vllm": executable file not found in $PATH: unknown.',
      "runtime-error",
      "oci-command-not-found",
      { command: "vllm" },
    ],
    [
      'docker: Error response from daemon: error gathering device information while adding custom device "/dev/kfd": no such file or directory.',
      "runtime-error",
      "missing-device",
      { path: "/dev/kfd" },
    ],
    [
      'docker: Error response from daemon: Conflict. The container name "/vllm" is already in use by container "9c0…". You have to remove (or rename) that container to be able to reuse that name.',
      "runtime-error",
      "name-in-use",
      { container: "vllm" },
    ],
    // podman rootless (rootlessport, pasta) and newer messages
    [
      "Error: statfs /var/run/docker.sock: permission denied",
      "runtime-error",
      "mount-permission",
      { path: "/var/run/docker.sock" },
    ],
    [
      "Error: rootlessport listen tcp 0.0.0.0:8000: bind: address already in use",
      "runtime-error",
      "port-in-use",
      { port: 8000 },
    ],
    [
      "Error: pasta failed with exit code 1: Failed to bind port 8000 (Address already in use) for option '-t 8000-8000:8000-8000', exiting",
      "runtime-error",
      "port-in-use",
      { port: 8000 },
    ],
    [
      "Error: localhost/vllm:latest: image not known",
      "runtime-error",
      "image-not-found",
      { image: "localhost/vllm:latest" },
    ],
    [
      "Error: reading manifest v0.99 in quay.io/acme/vllm: manifest unknown",
      "runtime-error",
      "image-not-found",
      { image: "quay.io/acme/vllm:v0.99" },
    ],
    [
      'Error: invalid argument "lots" for "--shm-size" flag: invalid size',
      "runtime-error",
      "bad-option-value",
      { option: "--shm-size", argument: "lots" },
    ],
    [
      "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
      "runtime-error",
      "missing-gpu-runtime",
      {},
    ],
    // systemd ≥ 254 wording and its exit statuses alone
    [
      "x.service: Failed to execute /opt/serve.sh: No such file or directory",
      "unit-error",
      "exec",
      { executable: "/opt/serve.sh" },
    ],
    [
      "x.service: Failed at step EXEC spawning /opt/serve.sh: Permission denied",
      "unit-error",
      "exec",
      { executable: "/opt/serve.sh", errno: "Permission denied" },
    ],
    ["x.service: Main process exited, code=exited, status=217/USER", "unit-error", "user", {}],
    ["Failed to restart x.service: Unit x.service not found.", "unit-error", "unit-not-found", { unit: "x.service" }],
    // bash
    [
      "/home/dank/serve.sh: line 12: /opt/venv/bin/activate: No such file or directory",
      "script-error",
      "script-path",
      { path: "/opt/venv/bin/activate", line: 12 },
    ],
    ["/home/dank/serve.sh: line 7: ${MODEL%/}: bad substitution", "script-error", "runtime-syntax", { line: 7 }],
    // argparse of vLLM's entrypoints, old and new
    [
      "api_server.py: error: unrecognized arguments: --enable-reasoning",
      "engine-args",
      "usage",
      { argument: "--enable-reasoning" },
    ],
    [
      "vllm serve: error: argument --max-num-seqs: invalid int value: 'many'",
      "engine-args",
      "usage",
      { argument: "--max-num-seqs" },
    ],
    [
      "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig",
      "engine-args",
      "config-validation",
      { argument: "SchedulerConfig" },
    ],
  ] as const)("%s", (line, kind, what, facts) => {
    const m = belowOf(line);
    expect(m?.kind).toBe(kind);
    expect(m?.facts.what).toBe(what);
    expect(m?.facts).toMatchObject(facts);
  });

  it("podman's pull retries are warnings, its signal proxy is noise: neither is an answer", () => {
    expect(
      belowOf(
        'time="2026-11-30T17:26:09Z" level=warning msg="Failed, retrying in 1s ... (1/3). Error: initializing source docker://x:latest: …"',
      ),
    ).toBeNull();
    const fwd =
      'time="2026-11-30T17:26:09Z" level=error msg="forwarding signal 15 to container 3f2a: no container with ID 3f2a found in database: no such container"';
    expect(isNoise(fwd)).toBe(true);
    expect(belowOf(fwd)).toBeNull();
    expect(belowOf("INFO: Started server process [1]")).toBeNull();
  });
});

describe("where a line came from", () => {
  it("the engine's own `Error:` lines (a container record) are never a runtime error; a usage error is the engine's", async () => {
    const { Diagnoser } = await import("../../../src/domain/diagnosis/classify.js");
    const rec = (text: string, container: string | null) => ({
      ts: 0,
      text,
      priority: 3,
      container,
      unit: "x.service",
      identifier: container ?? "serve.sh",
    });
    const d = new Diagnoser({ unit: "x.service" });
    d.pushRecord(rec("Error: listen EADDRINUSE: address already in use 0.0.0.0:7770", "engine"));
    expect(d.finish().class).not.toBe("runtime-error");
    d.pushRecord(rec("vllm serve: error: argument --port: invalid int value: 'x'", "engine"));
    expect(d.finish().class).toBe("engine-args");
    const p = new Diagnoser({ unit: "x.service" });
    p.pushRecord(rec("Error: unknown flag: --gpus-all", null));
    expect(p.finish()).toMatchObject({
      class: "runtime-error",
      below: { layer: "podman", facts: { option: "--gpus-all" } },
    });
  });
});

describe("fixes that name the thing to change", () => {
  const m = (line: string) => belowOf(line)!;
  it("a unit missing after a quadlet was installed names the generator, not a unit file to install", () => {
    const quadlet = belowAdvice(m("Failed to restart e.service: Unit e.service not found."), {
      install: [{ from: "deploy/e.container", to: "/etc/containers/systemd/e.container", mode: "0644" }],
    });
    expect(quadlet.summary).toBe(
      "systemd has no unit e.service: the quadlet /etc/containers/systemd/e.container that install: wrote generated none",
    );
    expect(quadlet.fix).toMatch(/^Quadlets need podman 4\.4 or later/);
    expect(belowAdvice(m("Failed to restart e.service: Unit e.service not found."), { install: [] }).fix).toMatch(
      /install the unit file to \/etc\/systemd\/system\/e\.service/,
    );
  });

  it("mode 0644: the install: entry and its mode", () => {
    const a = belowAdvice(m("e.service: Failed to locate executable /root/e/serve.sh: Permission denied"), {
      install: [{ from: "scripts/serve.sh", to: "/root/e/serve.sh", mode: "0644" }],
      configFile: "deploy-gate.yml",
    });
    expect(a.fix).toBe(
      'Set mode: "0755" on the install: entry scripts/serve.sh -> /root/e/serve.sh in deploy-gate.yml (it is "0644").',
    );
  });
  it("mode 0644 in the step wording (systemd 252 prints it when its own access check passes): the same advice", () => {
    const a = belowAdvice(m("e.service: Failed at step EXEC spawning /root/e/serve.sh: Permission denied"), {
      install: [{ from: "scripts/serve.sh", to: "/root/e/serve.sh", mode: "0644" }],
      configFile: "deploy-gate.yml",
    });
    expect(a.fix).toBe(
      'Set mode: "0755" on the install: entry scripts/serve.sh -> /root/e/serve.sh in deploy-gate.yml (it is "0644").',
    );
  });
  it("a wrong ExecStart path: the path install: writes", () => {
    const a = belowAdvice(m("e.service: Failed to locate executable /root/e/serve-x.sh: No such file or directory"), {
      install: [{ from: "scripts/serve.sh", to: "/root/e/serve.sh", mode: "0755" }],
    });
    expect(a.fix).toMatch(/ExecStart= names \/root\/e\/serve-x\.sh .*install: writes \/root\/e\/serve\.sh/);
  });
  it("a path install: writes that cannot be executed: the #! line", () => {
    const a = belowAdvice(m("e.service: Failed at step EXEC spawning /root/e/serve.sh: No such file or directory"), {
      install: [{ from: "scripts/serve.sh", to: "/root/e/serve.sh", mode: "0755" }],
    });
    expect(a.fix).toMatch(/^Fix the first line of scripts\/serve\.sh .*CRLF/);
  });
  it("a taken port: its current owner", () => {
    const a = belowAdvice(m("Error: cannot listen on the TCP port: listen tcp4 :7985: bind: address already in use"), {
      portOwner: "container holder (conmon pid 12)",
    });
    expect(a.fix).toMatch(/^Port 7985 is held by container holder \(conmon pid 12\)/);
  });
  it("an absent image: the loaded one it is a typo of", () => {
    const a = belowAdvice(
      m("Error: initializing source docker://localhost/engine-dubble:latest: pinging container registry localhost: …"),
      { localImages: ["localhost/engine-double:latest", "quay.io/x/y:1"] },
    );
    expect(a.fix).toBe(
      "The host has localhost/engine-double:latest: fix the image name in the serve script (localhost/engine-dubble:latest -> localhost/engine-double:latest).",
    );
  });
  it("an unset variable: the variable, where to set it, and the repo file", () => {
    const a = belowAdvice(m("/root/e/serve.sh: line 4: MODEL_DIR: unbound variable"), {
      install: [{ from: "scripts/serve.sh", to: "/root/e/serve.sh", mode: "0755" }],
    });
    expect(a.summary).toBe("the serve script stopped at line 4: MODEL_DIR is not set (set -u)");
    expect(a.fix).toMatch(
      /^Set MODEL_DIR where the unit runs scripts\/serve\.sh \(installed as \/root\/e\/serve\.sh\)/,
    );
  });
  it("a missing user: the User= value", () => {
    const a = belowAdvice(m("e.service: Failed to determine user credentials: No such process"), { unitUser: "vllm" });
    expect(a.fix).toMatch(/useradd --system vllm/);
  });
});
