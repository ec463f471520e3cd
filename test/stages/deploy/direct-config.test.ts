// Which endpoints deploy without container:, and the slip of a container: on a unit that runs its engine
// itself. Dry runs on a real git repo against a LocalHost (real sh in a temp home): lock, read, no restart.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runDeploy } from "../../../src/stages/deploy/deploy.js";
import { LocalHost } from "./local-host.js";
import { makeSandboxRepo, type SandboxRepo } from "./sandbox-repo.js";

const UNIT = "[Service]\nExecStart=/opt/venv/bin/vllm serve /m --port 8000\nRestart=always\n";
let made: SandboxRepo[] = [];
let homes: string[] = [];
afterEach(() => {
  for (const r of made) r.cleanup();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  made = [];
  homes = [];
});

/** A repo whose endpoint is its unit alone (no script), with or without a container: line. */
function repo(withContainer: boolean, unit = UNIT): SandboxRepo {
  const r = makeSandboxRepo({ endpoint: "direct", container: "dg-direct", port: 8000, address: "127.0.0.1" });
  made.push(r);
  r.commit("the unit runs the engine", (root) => {
    writeFileSync(join(root, "deploy/engine.service"), unit);
    writeFileSync(
      join(root, "deploy-gate.yml"),
      [
        "version: 1",
        "endpoints:",
        "  direct:",
        "    unit: deploy/engine.service",
        "    service: dg-direct.service",
        ...(withContainer ? ["    container: dg-direct"] : []),
        "    install:",
        "      - { from: deploy/engine.service, to: /etc/systemd/system/dg-direct-dryrun.service }",
        "",
      ].join("\n"),
    );
  });
  return r;
}

const dry = (r: SandboxRepo) => {
  const home = mkdtempSync(join(tmpdir(), "dg-direct-home-"));
  homes.push(home);
  return runDeploy(r.context(new LocalHost(home)), { dryRun: true, lockWaitMs: 0, owner: "t" });
};

describe("deploy of an engine the unit runs itself", () => {
  it("needs no container:, and says nothing about one", async () => {
    const res = await dry(repo(false));
    expect(
      res.findings.filter((f) => f.status !== "pass"),
      JSON.stringify(res.findings),
    ).toEqual([]);
  });

  it("a container: set anyway is kept, with a warning that names the slip and its fix", async () => {
    const res = await dry(repo(true));
    const w = res.findings.filter((f) => f.status === "warn");
    expect(w.map((f) => f.summary)).toEqual([
      "container: dg-direct is set, but deploy-gate.yml's launch file for direct runs the engine itself (no podman or docker run): deploy waits for that container",
    ]);
    expect(w[0]!.fix).toMatch(/remove container: from endpoints\.direct/);
  });

  it("a unit that runs podman still needs container:", async () => {
    const res = await dry(
      repo(false, "[Service]\nExecStart=/usr/bin/podman run --rm --name x vllm/vllm-openai --model /m\n"),
    );
    expect(res.findings.map((f) => [f.check, f.status, f.summary])).toEqual([
      ["deploy.restart", "fail", "endpoint direct has no container in deploy-gate.yml"],
    ]);
  });
});
