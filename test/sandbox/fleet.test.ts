import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extraIndexes } from "./fleet.js";
import { recipeFiles } from "./recipe.js";
import { CGROUP_NAME, HOST_ADDRESS, hostSpec, MACHINE, OUTER_ADDRESS, stateDir, VETH_OUTER } from "./settings.js";

const base = mkdtempSync(join(tmpdir(), "dg-sbx-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("sandbox hosts of up --hosts N", () => {
  it("host 0 is exactly the one-host machine: name, link, addresses, cgroup, state dir", () => {
    expect(hostSpec(0)).toEqual({
      index: 0,
      machine: MACHINE,
      vethOuter: VETH_OUTER,
      subnet: "10.231.77",
      outerAddress: OUTER_ADDRESS,
      hostAddress: HOST_ADDRESS,
      cgroupName: CGROUP_NAME,
      dir: stateDir(),
    });
  });
  it("host i > 0 has its own machine, link (within 15 characters), subnet, cgroup and state dir", () => {
    const s = hostSpec(2, "/run/x");
    expect(s).toEqual({
      index: 2,
      machine: "dgsandbox2",
      vethOuter: "ve-dgsandbox2",
      subnet: "10.231.79",
      outerAddress: "10.231.79.1",
      hostAddress: "10.231.79.2",
      cgroupName: "hostlab-dgsandbox2",
      dir: "/run/x-2",
    });
    expect(hostSpec(7).vethOuter.length).toBeLessThanOrEqual(15);
    expect(() => hostSpec(8)).toThrow(/0\.\.7/);
  });
  it("the root's network file is unchanged (the cached root's recipe hash must not move)", () => {
    expect(recipeFiles()["etc/systemd/network/10-host0.network"]![1]).toBe(
      "[Match]\nName=host0\n\n[Network]\nAddress=10.231.77.2/24\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n",
    );
  });
  it("finds the extra hosts' state dirs beside host 0's, and nothing else", () => {
    const b = join(base, "state");
    for (const d of ["state", "state-1", "state-3", "state-x", "state-9", "other-2"]) mkdirSync(join(base, d));
    expect(extraIndexes(b)).resolves.toEqual([1, 3]);
  });
});
