// Failures under the engine, each produced for real on the sandbox host (podman, systemd, bash), each red
// within two poll intervals of the failure with the right class, the real message and a fix that names
// the thing to change.
import { describe, expect, inject, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy, type DeployResult } from "../../src/stages/deploy/deploy.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxSession, sandboxOrSkip } from "./support/sandbox.js";

let nextPort = 7900;
const OWNER = "e2e@sandbox (local)";
const POLL_MS = 3000;

describe("deploy: failures under the engine on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos = sandboxSession((h) => (host = h));

  /** A repo whose file `rel` is edited by `edit` in a second commit (the deploy runs that commit). */
  const broken = (rel: string, edit: (text: string, r: SandboxRepo) => string) => {
    const name = fresh("dg-below");
    const r = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: nextPort++,
      address: s!.address,
      poll: `${POLL_MS / 1000}s`,
    });
    repos.push(r);
    r.commit(`break ${rel}`, (root) => {
      const p = join(root, rel);
      const before = readFileSync(p, "utf8");
      const after = edit(before, r);
      expect(after).not.toBe(before);
      writeFileSync(p, after);
    });
    return r;
  };

  /** Runs the deploy, noting the runner time at which each poll of the wait loop ended (its progress line). */
  const deploy = async (r: SandboxRepo) => {
    const polls: number[] = [];
    const res = await runDeploy(
      r.context(host, (l) => {
        if (/^\[\s*\d+(m\d+)?s\] /.test(l)) polls.push(Date.now());
      }),
      { dryRun: false, lockWaitMs: 0, owner: OWNER },
    );
    return { res, polls };
  };

  /** Host time (ms) of the first journal record of the window that carries `text`, on the runner's clock. */
  const failureAt = async (res: DeployResult, r: SandboxRepo, text: string) => {
    const cursor = res.deployment!.journalCursor!;
    const j = await host.run([
      "journalctl",
      "-o",
      "json",
      "--no-pager",
      `--after-cursor=${cursor}`,
      `_SYSTEMD_UNIT=${r.service}`,
      "+",
      `UNIT=${r.service}`,
    ]);
    const rec = j.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { MESSAGE?: unknown; __REALTIME_TIMESTAMP: string })
      .find((x) => typeof x.MESSAGE === "string" && x.MESSAGE.includes(text));
    expect(rec, `no journal record with ${text}`).toBeDefined();
    const t0 = Date.now();
    const hostNow = Number((await host.run(["date", "+%s%3N"])).stdout.trim());
    const offset = hostNow - (t0 + Date.now()) / 2;
    return Number(rec!.__REALTIME_TIMESTAMP) / 1000 - offset;
  };

  const expectRed = async (r: SandboxRepo, cls: string, decisive: RegExp, fix: RegExp) => {
    const { res, polls } = await deploy(r);
    expect(res.ok).toBe(false);
    // An engine that dies within milliseconds can make the restart itself red (the unit is already going
    // down when systemctl returns); otherwise the wait is. Either way the diagnosis follows.
    const red = res.findings.filter(
      (f) => (f.check === "deploy.ready" || f.check === "deploy.restart") && f.status === "fail",
    );
    expect(red.length, JSON.stringify(res.findings.map((f) => [f.check, f.status, f.summary]))).toBeGreaterThan(0);
    const d = res.findings.find((f) => f.check === "deploy.diagnosis")!;
    expect(d.data?.class).toBe(cls);
    expect(d.data?.decisive).toMatch(decisive);
    expect(d.evidence?.[0]).toBe(d.data?.decisive);
    expect(d.fix).toMatch(fix);
    const failed = await failureAt(res, r, String(d.data?.decisive).replace(/^.*?(?=Error:|line \d+:|Failed)/, ""));
    // Within two poll intervals, counted in polls (a loaded runner stretches each poll, not their number):
    // at most two polls ended after the failure, the first of which may have begun before it. The grace of
    // 1.5 s covers the line being logged a moment before the process exits and the unit changes state.
    expect(
      polls.filter((t) => t > failed + 1500).length,
      `polls ended at ${polls.map((t) => t - failed).join(", ")} ms from the failure`,
    ).toBeLessThanOrEqual(2);
    // every exit path leaves the unit started again (it keeps failing: activating or failed is fine)
    return d;
  };

  it("a bind mount whose source does not exist: runtime-error naming the path to create", async (ctx) => {
    sandboxOrSkip(ctx);
    const missing = `/srv/${fresh("dg-missing")}/models`;
    const r = broken("scripts/serve.sh", (t) =>
      t.replace('-p "$PORT:7770"', `-p "$PORT:7770" -v ${missing}:/models:ro`),
    );
    const d = await expectRed(
      r,
      "runtime-error",
      new RegExp(`^Error: statfs ${missing}: no such file or directory$`),
      new RegExp(`^Create ${missing} on the host \\(mkdir -p ${missing}`),
    );
    expect(d.data?.layer).toBe("podman");
  });

  it("an image the host does not have: runtime-error naming the loaded image it is a typo of", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("scripts/serve.sh", (t) => t.replace("localhost/engine-double ", "localhost/engine-dubble "));
    await expectRed(
      r,
      "runtime-error",
      /^Error: initializing source docker:\/\/localhost\/engine-dubble:latest: /,
      /The host has localhost\/engine-double:latest: fix the image name in the serve script \(localhost\/engine-dubble:latest -> localhost\/engine-double:latest\)/,
    );
  });

  it("a port another container holds: runtime-error naming the current owner", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("scripts/serve.sh", (t) =>
      t.replace("set -euo pipefail", "set -euo pipefail\n# the port is taken"),
    );
    const holder = fresh("dg-holder");
    await host.run(
      [
        "podman",
        "run",
        "-d",
        "--name",
        holder,
        "-p",
        `${r.vars.port}:7770`,
        "localhost/engine-double",
        "/models/qwen",
        "--port",
        "7770",
      ],
      { timeoutMs: 60_000 },
    );
    try {
      await expectRed(
        r,
        "runtime-error",
        new RegExp(`^Error: cannot listen on the TCP port: listen tcp4 :${r.vars.port}: bind: address already in use$`),
        new RegExp(`^Port ${r.vars.port} is held by container ${holder} \\(conmon pid \\d+\\)`),
      );
    } finally {
      await host.run(["podman", "rm", "-f", holder], { timeoutMs: 60_000 });
    }
  });

  it("a serve script installed with mode 0644: unit-error naming the install: entry's mode", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("deploy-gate.yml", (t) => t.replace('mode: "0755"', 'mode: "0644"'));
    const d = await expectRed(
      r,
      "unit-error",
      // systemd 252 words it either way: its own X_OK check refusing (locate), or execve() refusing (step EXEC);
      // which one depends on the machine (both seen on the sandbox host, the second on the CI runner)
      new RegExp(
        `^${r.service.replace(/\./g, "\\.")}: (?:Failed to locate executable|Failed at step EXEC spawning) ${r.script}: Permission denied$`,
      ),
      new RegExp(
        `^Set mode: "0755" on the install: entry scripts/serve\\.sh -> ${r.script} in deploy-gate\\.yml \\(it is "0644"\\)`,
      ),
    );
    expect(d.data?.layer).toBe("systemd");
  });

  it("an unset variable under set -u: script-error naming the variable and the line", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("scripts/serve.sh", (t) => t.replace('PORT="', 'echo "serving $MODEL_DIR"\nPORT="'));
    const d = await expectRed(
      r,
      "script-error",
      new RegExp(`^${r.script}: line 6: MODEL_DIR: unbound variable$`),
      /^Set MODEL_DIR where the unit runs scripts\/serve\.sh \(installed as .*\): .*Environment=MODEL_DIR=VALUE/,
    );
    expect(d.summary).toMatch(/line 6: MODEL_DIR is not set/);
    expect(d.data?.layer).toBe("bash");
  });

  it("an EnvironmentFile= that does not exist: unit-error naming it, never 'restarted too often before this deploy'", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("deploy/engine.service", (t, repo) =>
      t.replace("[Service]\n", `[Service]\nEnvironmentFile=/etc/${repo.vars.container}.env\n`),
    );
    const d = await expectRed(
      r,
      "unit-error",
      new RegExp(`^${r.service.replace(/\./g, "\\.")}: Failed to load environment files: No such file or directory$`),
      /^Create the file the unit's EnvironmentFile= names on the host .*EnvironmentFile=-\/path/,
    );
    expect(d.summary).not.toMatch(/before this deploy/);
  });

  it("an ExecStart= path the install does not write: unit-error naming the path install: writes", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("deploy/engine.service", (t, repo) =>
      t.replace(`ExecStart=${repo.script}`, `ExecStart=${repo.script.replace(/serve\.sh$/, "serve-engine.sh")}`),
    );
    await expectRed(
      r,
      "unit-error",
      // systemd 252 logs both lines for one failed start (execute.c: the child's "Failed to locate executable", then
      // "Failed at step EXEC spawning"); a clean-clone CI run's journal read held only the second: either is the cause
      /(?:Failed to locate executable|Failed at step EXEC spawning) \/root\/dg-e2e\/.*\/serve-engine\.sh: No such file or directory$/,
      new RegExp(`install: writes ${r.script}: make ExecStart= and the install: entry's to: the same path`),
    );
  });

  it("a service: the host has no unit for: unit-error from systemctl's own answer, naming service:", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("deploy-gate.yml", (t, repo) =>
      t.replace(`service: ${repo.service}`, `service: ${repo.vars.container}-typo.service`),
    );
    const { res } = await deploy(r);
    expect(res.findings.find((f) => f.check === "deploy.restart")?.status).toBe("fail");
    const d = res.findings.find((f) => f.check === "deploy.diagnosis")!;
    expect(d.data?.class).toBe("unit-error");
    expect(d.data?.decisive).toMatch(
      new RegExp(
        `Failed to restart ${r.vars.container}-typo\\.service: Unit ${r.vars.container}-typo\\.service not found\\.$`,
      ),
    );
    expect(d.fix).toMatch(
      new RegExp(
        `^service: in deploy-gate\\.yml names ${r.vars.container}-typo\\.service, which the host does not have`,
      ),
    );
  });

  it("an option podman refuses: runtime-error naming the option", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = broken("scripts/serve.sh", (t) => t.replace('-p "$PORT:7770"', '-p "$PORT:7770" --memroy 4g'));
    await expectRed(
      r,
      "runtime-error",
      /^Error: unknown flag: --memroy$/,
      /^Remove or correct --memroy in the serve script's podman run line/,
    );
  });
});
