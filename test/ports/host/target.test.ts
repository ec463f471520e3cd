// The effective SSH target: overrides from outside the config, paths relative to the config, the jump host.
import { describe, expect, it } from "vitest";
import { describeTarget, effectiveTarget, pinOverride, sshOptions } from "../../../src/ports/host/target.js";
import type { Options } from "../../../src/commands/options.js";
import { endpointFor } from "../../../src/commands/shared/endpoints.js";
import type { Workspace } from "../../../src/commands/shared/workspace.js";

const FP = (c: string) => `SHA256:${c.repeat(43)}`;
const host = { address: "gpu1", port: 22, user: "dank", hostKey: FP("A"), identityFile: "keys/deploy" };

describe("effectiveTarget", () => {
  it("reads identityFile relative to the config file, for the host and its jump host", () => {
    const t = effectiveTarget(
      { ...host, jump: { address: "b", port: 22, user: "ops", hostKey: FP("J"), identityFile: "../j" } },
      null,
      "/repo/conf",
    );
    expect(t.identityFile).toBe("/repo/conf/keys/deploy");
    expect(t.jump!.identityFile).toBe("/repo/j");
    expect(effectiveTarget({ ...host, identityFile: "/abs/k" }, null, "/repo").identityFile).toBe("/abs/k");
  });

  it("applies address/port/user overrides and replaces both pins with the one given", () => {
    const t = effectiveTarget(
      { ...host, knownHosts: "gpu1 ssh-ed25519 AAAA" },
      { address: "10.0.0.5", port: 2222, ...pinOverride(FP("B")) },
      "/r",
    );
    expect(t).toMatchObject({ address: "10.0.0.5", port: 2222, user: "dank", hostKey: FP("B") });
    expect(t.knownHosts).toBeUndefined();
    const k = effectiveTarget(host, pinOverride("gpu1 ssh-ed25519 AAAA"), "/r");
    expect(k.hostKey).toBeUndefined();
    expect(k.knownHosts).toBe("gpu1 ssh-ed25519 AAAA");
  });

  it("takes a jump host given from outside over the config's, and hands it to ssh2 with the timeout", () => {
    const t = effectiveTarget(
      { ...host, jump: { address: "old", port: 22, user: "x" } },
      { jump: { address: "new", port: 2200, user: "ops", hostKey: FP("C") } },
      "/r",
    );
    expect(t.jump).toMatchObject({ address: "new", port: 2200 });
    expect(sshOptions(t, { timeoutMs: 5000 })).toEqual({ timeoutMs: 5000, jump: { target: t.jump } });
    expect(sshOptions(host, { timeoutMs: 5000 })).toEqual({ timeoutMs: 5000 });
    expect(describeTarget(t)).toBe("dank@gpu1:22 (via ops@new:2200)");
  });
});

describe("endpointFor (the action's host inputs)", () => {
  const ws = (host?: object) =>
    ({
      configFile: "/repo/deploy-gate.yml",
      config: { version: 1, endpoints: { a: { script: "s.sh", ...(host ? { host } : {}) } } },
    }) as unknown as Workspace;
  const opts = (hostOverride: Options["hostOverride"]) => ({ hostOverride }) as Options;

  it("builds the host from inputs when the config has none, and overrides the config's otherwise", () => {
    expect(endpointFor(ws(), "a", opts({ address: "10.0.0.5", user: "deploy", hostKey: FP("D") })).host).toEqual({
      address: "10.0.0.5",
      port: 22,
      user: "deploy",
      hostKey: FP("D"),
    });
    // host without user (or user without host) and no host: in the config: the missing input is named
    expect(() => endpointFor(ws(), "a", opts({ address: "10.0.0.5" }))).toThrow(
      /give the host and user inputs together \(the user input is missing\)/,
    );
    expect(() => endpointFor(ws(), "a", opts({ user: "deploy" }))).toThrow(/\(the host input is missing\)/);
    expect(endpointFor(ws(), "a", opts({ port: 2200 })).host).toBeUndefined(); // no host at all: requireFor names it
    expect(endpointFor(ws(host), "a", opts({ port: 2200 })).host).toMatchObject({
      address: "gpu1",
      port: 2200,
      identityFile: "/repo/keys/deploy",
    });
    expect(endpointFor(ws(host), "a", opts(null)).host).toEqual(host);
  });
});
