// The endpoint's launch as deploy and verify read it from a real git repo: a unit that runs compose up launches
// the compose service, whose container the tool names; a unit whose compose file cannot be found says what to set.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runDeploy } from "../../src/stages/deploy/deploy.js";
import { readEndpointLaunch } from "../../src/stages/launch-script.js";
import { LocalHost } from "./deploy/local-host.js";
import { makeSandboxRepo, type SandboxRepo } from "./deploy/sandbox-repo.js";
import { gate } from "../e2e/support/gate-cli.js";

let made: SandboxRepo[] = [];
let homes: string[] = [];
afterEach(() => {
  for (const r of made) r.cleanup();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  made = [];
  homes = [];
});

const repo = () => {
  const r = makeSandboxRepo({
    endpoint: "chat",
    container: "dg-chat",
    port: 8000,
    address: "127.0.0.1",
    template: "sandbox-compose-repo",
  });
  made.push(r);
  return r;
};
const host = () => {
  const home = mkdtempSync(join(tmpdir(), "dg-launch-home-"));
  homes.push(home);
  return new LocalHost(home);
};
const edit = (r: SandboxRepo, file: string, f: (t: string) => string) =>
  r.commit(`edit ${file}`, (root) => writeFileSync(join(root, file), f(readFileSync(join(root, file), "utf8"))));

describe("an endpoint whose unit runs compose up", () => {
  it("is the compose service's launch, in the container podman-compose names after the file's directory", async () => {
    const r = repo();
    const l = await readEndpointLaunch(r.context(host()));
    expect(l.compose).toMatchObject({
      file: "deploy/compose.yaml",
      service: "engine",
      container: "dg-chat_engine_1",
      gap: null,
    });
    expect(l.cli).toBe("podman");
    expect(l.path).toBe("deploy/compose.yaml");
    expect(l.script?.engine?.podmanRun?.runtime).toBe("compose");
    expect(l.script?.engine?.flags.find((f) => f.name === "--max-model-len")).toMatchObject({ value: "8192" });
  });

  it("docker compose in the unit: docker holds the container, named with dashes; container_name: wins", async () => {
    const r = repo();
    edit(r, "deploy/engine.service", (t) => t.replace(/\/usr\/bin\/podman-compose /g, "/usr/bin/docker compose "));
    expect((await readEndpointLaunch(r.context(host()))).compose).toMatchObject({ container: "dg-chat-engine-1" });
    expect((await readEndpointLaunch(r.context(host()))).cli).toBe("docker");
    edit(r, "deploy/compose.yaml", (t) => t.replace("  engine:\n", "  engine:\n    container_name: qwen-chat\n"));
    expect((await readEndpointLaunch(r.context(host()))).compose?.container).toBe("qwen-chat");
  });

  it("a compose file named as script: with WorkingDirectory= and no -f is found the same way", async () => {
    const r = repo();
    edit(r, "deploy/engine.service", (t) =>
      t.replace(/ -f \S+compose\.yaml/g, "").replace("[Service]\n", "[Service]\nWorkingDirectory=/srv/Chat.Box\n"),
    );
    edit(r, "deploy-gate.yml", (t) =>
      t.replace(
        "    unit: deploy/engine.service\n",
        `    script: deploy/compose.yaml\n    unit: deploy/engine.service\n`,
      ),
    );
    const l = await readEndpointLaunch(r.context(host()));
    expect(l.compose).toMatchObject({ file: "deploy/compose.yaml", container: "chatbox_engine_1" });
  });

  it("a compose file deploy cannot place: the dry run asks for what is missing instead of a container it made up", async () => {
    const r = repo();
    edit(r, "deploy/engine.service", (t) => t.replace(/ -f \S+compose\.yaml/g, " -f compose.yaml"));
    const l = await readEndpointLaunch(r.context(host()));
    expect(l.compose).toMatchObject({ file: null, service: null, container: null });
    const res = await runDeploy(r.context(host()), { dryRun: true, lockWaitMs: 0, owner: "t" });
    const f = res.findings.find((x) => x.status === "fail")!;
    expect(f.summary).toBe("endpoint chat has no container in deploy-gate.yml");
    expect(f.fix).toMatch(
      /^The unit runs compose up, but the engine's container name cannot be told from it: say which service/,
    );
  });

  it("preflight checks the compose service the unit starts: its contracts, and a flag dropped from the compose file", async () => {
    const r = repo();
    const first = await gate(r.root, "preflight");
    const contracts = first.report.findings.find((f) => f.check === "preflight.contracts")!;
    expect(contracts).toMatchObject({ status: "pass", summary: "deploy/compose.yaml: 3 of 3 contract flags present" });
    edit(r, "deploy/compose.yaml", (t) => t.replace("      - --enable-auto-tool-choice\n", ""));
    const second = await gate(r.root, "preflight");
    const broken = second.report.findings.find((f) => f.check === "preflight.contracts" && f.status === "fail")!;
    expect(broken.summary).toMatch(
      /^deploy\/compose\.yaml: contract "--enable-auto-tool-choice" broken: .* dropped in [0-9a-f]{10}/,
    );
    const dropped = second.report.findings.find((f) => f.check === "preflight.dropped-flags")!;
    expect(dropped).toMatchObject({ status: "fail", file: "deploy/compose.yaml" });
    expect(second.code).toBe(1);
  });

  it("a serve script that runs the engine itself and also starts a compose file (a sidecar) keeps its own engine", async () => {
    const r = makeSandboxRepo({ endpoint: "side", container: "dg-side", port: 8000, address: "127.0.0.1" });
    made.push(r);
    edit(r, "scripts/serve.sh", (t) =>
      t.replace("exec podman run", "docker compose -f /srv/monitoring/compose.yaml up -d\nexec podman run"),
    );
    const l = await readEndpointLaunch(r.context(host()));
    expect(l.compose).toBeNull();
    expect(l.path).toBe("scripts/serve.sh");
    expect(l.script?.engine?.podmanRun?.runtime).toBe("podman");
  });
});
