import { describe, expect, it } from "vitest";
import {
  endpointFor,
  haltFix,
  hostRows,
  hostsToFinish,
  planSteps,
  rollbackTargets,
  selectHosts,
  stepPassed,
  type HostOutcome,
} from "../../src/domain/rollout.js";
import { deployChanged } from "../../src/stages/deploy/rollback-guard.js";
import { loadConfig, parseConfig } from "../../src/domain/config/load.js";
import { fail, pass, skip } from "../../src/domain/report/finding.js";

const H = ["a", "b", "c", "d", "e"];
const outcome = (host: string, step: number, ok: boolean, changed = true): HostOutcome => ({
  host,
  step,
  changed,
  findings: [ok ? pass("deploy.ready", "ready") : fail("deploy.ready", "not ready")],
});

describe("planSteps", () => {
  it("puts the canary hosts first, then batches of `batch`", () => {
    expect(planSteps(H, { canary: 1, batch: 2 })).toEqual([["a"], ["b", "c"], ["d", "e"]]);
    expect(planSteps(H, { canary: 2, batch: 2 })).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(planSteps(H.slice(0, 3), { canary: 1, batch: 1 })).toEqual([["a"], ["b"], ["c"]]);
  });
  it("without a canary starts with a batch; a canary larger than the fleet is the whole fleet", () => {
    expect(planSteps(H.slice(0, 3), { canary: 0, batch: 2 })).toEqual([["a", "b"], ["c"]]);
    expect(planSteps(["a", "b"], { canary: 5, batch: 2 })).toEqual([["a", "b"]]);
    expect(planSteps([], { canary: 1, batch: 2 })).toEqual([]);
  });
});

describe("selectHosts", () => {
  it("keeps config order and reports names that are not in the fleet", () => {
    expect(selectHosts(H, ["c", "a"])).toEqual({ hosts: ["a", "c"], unknown: [] });
    expect(selectHosts(H, ["a", "z"])).toEqual({ hosts: ["a"], unknown: ["z"] });
    expect(selectHosts(H, null).hosts).toEqual(H);
  });
  it("takes shell globs as kubectl and Ansible users write them ('gpu*', 'gpu-?', 'gpu-[ab]')", () => {
    const fleet = ["gpu-a", "gpu-b", "gpu-c", "cpu-a"];
    expect(selectHosts(fleet, ["gpu*"])).toEqual({ hosts: ["gpu-a", "gpu-b", "gpu-c"], unknown: [] });
    expect(selectHosts(fleet, ["gpu-[ab]", "cpu-?"])).toEqual({ hosts: ["gpu-a", "gpu-b", "cpu-a"], unknown: [] });
    expect(selectHosts(fleet, ["tpu*"])).toEqual({ hosts: [], unknown: ["tpu*"] });
    expect(selectHosts(["a.b", "axb"], ["a.b"]).hosts).toEqual(["a.b"]); // a dot is a dot
  });
});

describe("halting and rolling back", () => {
  it("a step passes only when every host passed", () => {
    expect(stepPassed([outcome("b", 1, true), outcome("c", 1, true)])).toBe(true);
    expect(stepPassed([outcome("b", 1, true), outcome("c", 1, false)])).toBe(false);
  });
  it("rolls back every host this run changed, the failing one included, and no unchanged host", () => {
    expect(
      rollbackTargets([
        outcome("a", 0, true),
        outcome("b", 1, true),
        outcome("c", 1, false),
        outcome("d", 1, false, false),
      ]),
    ).toEqual(["a", "b", "c"]);
  });
  it("finishing a halted rollout needs the failed and untouched hosts, and every host rolled back", () => {
    const outs = [outcome("a", 0, true), outcome("b", 1, true), outcome("c", 1, false)];
    expect(hostsToFinish(["a", "b", "c", "d"], outs, new Set())).toEqual(["c", "d"]);
    // with rollback.auto the passed hosts run the old version again: the rollout starts over
    expect(hostsToFinish(["a", "b", "c"], outs, new Set(["a", "b", "c"]))).toEqual(["a", "b", "c"]);
    expect(hostsToFinish(["a", "b", "c"], outs, new Set(["b"]))).toEqual(["b", "c"]);
  });
  it("the halt's fix says --hosts finishes only a host-side fix; a new commit goes to every host", () => {
    const some = haltFix("deploy-gate run --endpoint chat", ["c"], 3, false);
    expect(some).toContain("fix it there and finish the rollout: deploy-gate run --endpoint chat --hosts c;");
    expect(some).toMatch(
      /a fix committed to the repo is a new change for every host: deploy-gate run --endpoint chat$/,
    );
    expect(haltFix("deploy-gate run --endpoint chat", ["a", "b", "c"], 3, true)).toMatch(
      /roll it out again: deploy-gate run --endpoint chat$/,
    );
  });
  it("a deploy that stopped at the lock or the connection changed nothing", () => {
    expect(deployChanged([pass("deploy.connect", "ok"), fail("deploy.lock", "held")])).toBe(false);
    expect(deployChanged([pass("deploy.lock", "ok"), fail("deploy.install", "write failed")])).toBe(true);
  });
});

describe("hostRows", () => {
  it("lists failures first, with the rollback outcome, ready time and the KV pool", () => {
    const findings = [
      { ...pass("deploy.ready", "ready"), host: "a" },
      { ...pass("verify.plan", "plan", { data: { kvTokens: 81_920 } }), host: "a" },
      { ...pass("deploy.rollback", "rolled back"), host: "a" },
      { ...fail("deploy.ready", "oom"), host: "b" },
      { ...pass("deploy.rollback", "rolled back"), host: "b" },
      { ...skip("fleet.rollout", "not touched"), host: "c" },
      { ...pass("deploy.ready", "ready"), host: "d" },
    ];
    const rows = hostRows(
      [
        { host: "a", step: 1, readyMs: 4200 },
        { host: "b", step: 2, readyMs: null },
        { host: "c", step: 3, readyMs: null },
        { host: "d", step: 2, readyMs: 10 },
      ],
      findings,
    );
    expect(rows.map((r) => [r.host, r.verdict])).toEqual([
      ["b", "failed, rolled back"],
      ["a", "rolled back"],
      ["d", "pass"],
      ["c", "not touched"],
    ]);
    expect(rows.find((r) => r.host === "a")).toMatchObject({ readyMs: 4200, kvTokens: 81_920, step: 1 });
  });
});

describe("config", () => {
  it("the example fleet config is valid: three pinned hosts, canary 1 then a batch of 2", () => {
    const ep = loadConfig(new URL("../../examples/serve-repo/deploy-gate.fleet.yml", import.meta.url).pathname)
      .endpoints["archon-fleet"]!;
    expect(ep.hosts?.map((h) => [h.name, h.hostKey?.startsWith("SHA256:")])).toEqual([
      ["gpu2", true],
      ["gpu3", true],
      ["gpu4", true],
    ]);
    expect(
      planSteps(
        ep.hosts!.map((h) => h.name!),
        ep.rollout,
      ),
    ).toEqual([["gpu2"], ["gpu3", "gpu4"]]);
  });
  const yml = (hosts: string, extra = "") =>
    `version: 1\nendpoints:\n  e:\n    script: s.sh\n    url: http://x:1\n    hosts:\n${hosts}${extra}`;
  it("reads hosts: and rollout: with defaults, and gives each host its own target and URL", () => {
    const c = parseConfig(
      yml(
        '      - { address: 10.0.0.1, user: root, name: a }\n      - { address: 10.0.0.2, user: root, url: "http://y:2" }\n',
      ),
      "f.yml",
    );
    const ep = c.endpoints.e!;
    expect(ep.rollout).toEqual({ canary: 1, batch: 1, pause: 0 });
    expect(ep.replicas.kvTolerance).toBe(0.02);
    const b = endpointFor(ep, ep.hosts![1]!);
    expect(b.host).toEqual({ address: "10.0.0.2", port: 22, user: "root" });
    expect(b.url).toBe("http://y:2");
    expect(endpointFor(ep, ep.hosts![0]!).url).toBe("http://x:1");
  });
  it("refuses host: with hosts:, duplicate names, and an unknown rollout key, each at its line", () => {
    expect(() =>
      parseConfig(yml("      - { address: 10.0.0.1, user: root }\n", "    host: { address: h, user: u }\n"), "f.yml"),
    ).toThrow(/host: \(one machine\) or hosts: \(a fleet\), not both/);
    expect(() =>
      parseConfig(
        yml("      - { address: 10.0.0.1, user: root }\n      - { address: 10.0.0.1, user: root, port: 2222 }\n"),
        "f.yml",
      ),
    ).toThrow(/f\.yml:7: .*two hosts share a name/);
    // one machine under two names: the second entry would fail on the first's lock on every rerun (issue 27)
    expect(() =>
      parseConfig(
        yml(
          "      - { name: a, address: GPU1.lan, user: root }\n      - { name: b, address: gpu1.lan, port: 22, user: dank }\n",
        ),
        "f.yml",
      ),
    ).toThrow(/hosts\.1: hosts\[1\] \(b\) is the machine of hosts\[0\] \(a\): gpu1\.lan:22; .*remove one$/m);
    // the same address behind two jump hosts: two machines
    const jumped = (j: string) => `{ name: ${j}, address: 10.0.0.5, user: root, jump: { address: ${j}.lan, user: u } }`;
    expect(() => parseConfig(yml(`      - ${jumped("j1")}\n      - ${jumped("j2")}\n`), "f.yml")).not.toThrow();
    expect(() =>
      parseConfig(yml("      - { address: 10.0.0.1, user: root }\n", "    rollout: { batches: 2 }\n"), "f.yml"),
    ).toThrow(/batches/);
  });
});
