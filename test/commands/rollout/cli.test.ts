// --hosts and the fleet's refusals through the real CLI, in a real git repository. The unreachable host
// is a loopback port nothing listens on: the rollout must count it as its step's failure and halt.
import { afterAll, describe, expect, it } from "vitest";
import { closedPort } from "../../helpers/closed-port.js";
import { parseCli } from "../../../src/cli/args.js";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo } from "../../helpers/repo.js";

const PIN = "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8";

const repo = tempRepo("dg-fleet-cli-");
afterAll(() => repo.cleanup());

async function fleetRepo(): Promise<void> {
  const port = await closedPort();
  // three machines (loopback addresses), one port nothing listens on
  const host = (n: string) =>
    `      - { name: ${n}, address: 127.0.0.${n.charCodeAt(4) - 96}, port: ${port}, user: deploy, hostKey: "${PIN}" }\n`;
  repo.commit("fleet", {
    "serve.sh": "#!/bin/bash\nexec podman run --rm --name chat localhost/engine /models/qwen --port 7770\n",
    "deploy-gate.yml": `version: 1\nendpoints:\n  chat:\n    script: serve.sh\n    service: chat.service\n    container: chat\n    install: [{ from: serve.sh, to: /opt/chat.sh, mode: "0755" }]\n    url: http://127.0.0.1:9\n    model: qwen\n    hosts:\n${host("gpu-a")}${host("gpu-b")}${host("gpu-c")}    rollout: { canary: 1, batch: 2 }\n  solo:\n    script: serve.sh\n`,
  });
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd: repo.dir,
  });
  return { code, out, err };
}

describe("--hosts", () => {
  it("parses a comma-separated list and refuses an empty or malformed one", () => {
    expect(parseCli(["run", "--hosts", "gpu-a, gpu-b,gpu-a"], "/")).toMatchObject({ hosts: ["gpu-a", "gpu-b"] });
    expect(parseCli(["run"], "/")).toMatchObject({ hosts: null });
    expect(() => parseCli(["run", "--hosts", ","], "/")).toThrow(/--hosts ",": expected host names/);
    expect(() => parseCli(["run", "--hosts", "a;rm -rf"], "/")).toThrow(/expected host names/);
  });

  it("names the fleet's hosts when --hosts names another, and refuses --hosts on a one-host endpoint", async () => {
    await fleetRepo();
    const bad = await cli("run", "--endpoint", "chat", "--hosts", "gpu-z", "--skip-preflight");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--hosts gpu-z: not a host of endpoint chat (hosts: gpu-a, gpu-b, gpu-c)");
    const solo = await cli("verify", "--endpoint", "solo", "--hosts", "gpu-a");
    expect(solo.code).toBe(2);
    expect(solo.err).toMatch(/--hosts: endpoint solo has one host/);
  });
});

describe("an unreachable host", () => {
  it("fails its step (said so), halts the rollout and leaves the later hosts untouched", async () => {
    await fleetRepo();
    const { code, out } = await cli("run", "--endpoint", "chat", "--skip-preflight", "--json");
    expect(code).toBe(1);
    const r = JSON.parse(out) as Report;
    const conn = r.findings.find((f) => f.host === "gpu-a" && f.check === "deploy.connect");
    expect(conn?.status).toBe("fail");
    expect(conn?.summary).toMatch(/unreachable before step 1: counted as a failure, not skipped/);
    expect(r.fleet?.map((x) => [x.host, x.verdict])).toEqual([
      ["gpu-a", "fail"],
      ["gpu-b", "not touched"],
      ["gpu-c", "not touched"],
    ]);
    expect(r.findings.find((f) => f.check === "fleet.rollout" && !f.host)?.summary).toMatch(
      /halted at step 1 of 2: gpu-a failed/,
    );
  });

  it("verify reads every host and names the unreachable ones in verify.replicas", async () => {
    await fleetRepo();
    const { code, out } = await cli("verify", "--endpoint", "chat", "--hosts", "gpu-a,gpu-c", "--json");
    expect(code).toBe(1);
    const r = JSON.parse(out) as Report;
    expect(r.fleet?.map((x) => x.host).sort()).toEqual(["gpu-a", "gpu-c"]);
    expect(r.findings.find((f) => f.check === "verify.replicas")?.summary).toMatch(
      /gpu-a \(unreadable\), gpu-c \(unreadable\)/,
    );
  });
});

describe("lock on a fleet endpoint", () => {
  it("reads each host's lock (or names the --hosts one), never asks for host:", async () => {
    await fleetRepo();
    const all = await cli("lock", "status", "--endpoint", "chat");
    expect(all.code).toBe(1); // nothing listens: every host is said unreachable, by name, in config order
    expect(all.err).not.toMatch(/host: required/);
    expect(all.err.match(/\[gpu-[abc]\] cannot connect/g)).toEqual([
      "[gpu-a] cannot connect",
      "[gpu-b] cannot connect",
      "[gpu-c] cannot connect",
    ]);
    const one = await cli("lock", "release", "--endpoint", "chat", "--hosts", "gpu-b", "--json");
    expect(JSON.parse(one.out)).toMatchObject({ endpoint: "chat", hosts: [{ name: "gpu-b" }] });
    expect((await cli("lock", "status", "--endpoint", "chat", "--hosts", "gpu-z")).err).toContain(
      "--hosts gpu-z: not a host of endpoint chat (hosts: gpu-a, gpu-b, gpu-c)",
    );
  });
  it("logs on a fleet asks for the one host to read instead of a host: the config refuses", async () => {
    await fleetRepo();
    const r = await cli("logs", "--endpoint", "chat");
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "logs reads one host: endpoint chat is a fleet (hosts:); pass --hosts NAME (one of gpu-a, gpu-b, gpu-c)",
    );
    const one = await cli("logs", "--endpoint", "chat", "--hosts", "gpu-b");
    expect(one.err).toMatch(/cannot connect to deploy@127\.0\.0\.2/);
  });
});
