// The whole gate through the CLI's main() against the sandbox host: `run` (preflight → deploy → verify),
// auto-rollback after a refused boot, `verify` against the ref recorded on the host, and `--ref` drift.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { gate } from "./support/gate-cli.js";
import type { Report } from "../../src/domain/report/finding.js";
import { makeSandboxRepo, withSandboxHost, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { takeLock } from "../../src/stages/deploy/lock.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { fresh, sandboxSession, sandboxOrSkip, target } from "./support/sandbox.js";

let nextPort = 7900; // this file's port range: 7900-7919

const status = (r: Report, check: string) =>
  r.findings.filter((f) => f.check === check && !f.data?.rollback).map((f) => f.status);

/** Marks the repo's current commit as the rollback ref `good`. */
const tagGood = (r: SandboxRepo) => execFileSync("git", ["-C", r.root, "tag", "good"]);

describe("deploy-gate run / verify / rollback on the sandbox host", () => {
  const s = inject("sandbox");
  const repos = sandboxSession(() => {});

  /** The fixture repo with the sandbox host pinned in deploy-gate.yml and a rollback tag. */
  function repo(extra = ""): SandboxRepo {
    const name = fresh("dg-cli");
    const r = makeSandboxRepo({ endpoint: name, container: name, port: nextPort++, address: s!.address });
    repos.push(r);
    r.commit("pin the sandbox host", (root) => {
      const p = join(root, "deploy-gate.yml");
      writeFileSync(
        p,
        withSandboxHost(readFileSync(p, "utf8"), s!, {
          endpointExtra: extra,
          contractExtra: "      thinking: true\n      tools: true\n",
        }),
      );
    });
    return r;
  }

  it("run: a good change passes preflight, deploys, and every verify check passes; verify alone agrees", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const lines: string[] = [];
    const { code, report, err } = await gate(r.root, "run", "--endpoint", r.vars.endpoint);
    lines.push(err);
    expect(report.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    for (const c of [
      "preflight.contracts",
      "deploy.lock",
      "deploy.install",
      "deploy.restart",
      "deploy.ready",
      "verify.argv",
      "verify.models",
      "verify.thinking",
      "verify.tools",
      "verify.restarts",
    ]) {
      expect(status(report, c), c).toContain("pass");
    }
    expect(err).toMatch(/\[\s*\d+s\] dg-cli-\w+: /); // progress lines go to stderr, the report alone to stdout
    const alone = await gate(r.root, "verify", "--endpoint", r.vars.endpoint);
    expect(alone.code).toBe(0);
    expect(alone.report.ref.sha).toBe(report.ref.sha);
    expect(alone.report.ref.name).toBe("main"); // the deployed ref's name, not its 40-character sha
  });

  it("run: a refused boot fails with the diagnosis, auto-rollback restores the tagged version, and the job still fails", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo("    rollback: { ref: good, auto: true }\n");
    tagGood(r);
    const first = await gate(r.root, "run", "--endpoint", r.vars.endpoint);
    expect(first.code).toBe(0);
    r.commit("raise memory use", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(
        p,
        readFileSync(p, "utf8").replace("-e FAKE_BOOT_SECONDS=2", "-e FAKE_BOOT_SECONDS=2 -e FAKE_FAIL=oom"),
      );
    });
    const { code, report } = await gate(r.root, "run", "--endpoint", r.vars.endpoint);
    expect(code).toBe(1);
    const diag = report.findings.find((f) => f.check === "deploy.diagnosis" && !f.data?.rollback);
    expect(diag?.data?.class).toBe("oom");
    const rb = report.findings.find((f) => f.check === "deploy.rollback");
    expect(rb?.status).toBe("pass");
    expect(rb?.summary).toContain("rolled back to good");
    expect(report.findings.some((f) => f.data?.rollback && f.check === "verify.tools" && f.status === "pass")).toBe(
      true,
    );
    const live = (await (await fetch(`http://${s!.address}:${r.vars.port}/v1/models`)).json()) as {
      data: { id: string }[];
    };
    expect(live.data[0]!.id).toBe("qwen");
    // `rollback` by hand: the same deploy path for rollback.ref, then verify
    const manual = await gate(r.root, "rollback", "--endpoint", r.vars.endpoint);
    expect(manual.code).toBe(0);
    expect(manual.report.ref.name).toBe("good");
    expect(status(manual.report, "verify.tools")).toEqual(["pass"]);
  });

  it("run: a change that boots but fails verify is rolled back too, as a fleet's step is", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo("    rollback: { ref: good, auto: true }\n");
    tagGood(r);
    r.commit("drop tools", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replace(" --enable-auto-tool-choice --tool-call-parser qwen3_xml", ""));
    });
    const { code, report, err } = await gate(r.root, "run", "--endpoint", r.vars.endpoint, "--skip-preflight");
    expect(code).toBe(1);
    expect(status(report, "deploy.ready")).toEqual(["pass"]);
    expect(status(report, "verify.argv")).toEqual(["fail"]);
    expect(err).toContain("verify failed; rolling back to good");
    const rb = report.findings.find((f) => f.check === "deploy.rollback");
    expect(rb?.status).toBe("pass");
    expect(report.findings.some((f) => f.data?.rollback && f.check === "verify.tools" && f.status === "pass")).toBe(
      true,
    );
  });

  it("run: a failed deploy of the rollback ref itself is not deployed a second time", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo("    rollback: { ref: good, auto: true }\n");
    r.commit("raise memory use", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(
        p,
        readFileSync(p, "utf8").replace("-e FAKE_BOOT_SECONDS=2", "-e FAKE_BOOT_SECONDS=2 -e FAKE_FAIL=oom"),
      );
    });
    tagGood(r);
    const { code, report } = await gate(r.root, "run", "--endpoint", r.vars.endpoint, "--ref", "good");
    expect(code).toBe(1);
    expect(status(report, "deploy.ready")).toEqual(["fail"]);
    expect(report.findings.filter((f) => f.data?.rollback)).toEqual([]);
    const rb = report.findings.find((f) => f.check === "deploy.rollback");
    expect(rb?.status).toBe("skip");
    expect(rb?.summary).toMatch(/the failed deploy was the rollback ref good \(\w+\) itself/);
    expect(rb?.fix).toContain(`deploy-gate rollback --endpoint ${r.vars.endpoint} --ref REF`);
  });

  it("run: a deploy refused by another run's lock rolls nothing back (the other run's deploy stays)", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo("    rollback: { ref: good, auto: true }\n");
    tagGood(r);
    r.commit("raise memory use", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(
        p,
        readFileSync(p, "utf8").replace("-e FAKE_BOOT_SECONDS=2", "-e FAKE_BOOT_SECONDS=2 -e FAKE_FAIL=oom"),
      );
    });
    const host = await SshHost.connect(target(s!));
    const theirs = await takeLock(host, {
      endpoint: r.vars.endpoint,
      owner: "carol@ci-7 (run 42)",
      ref: "v3",
      sha: "abcdef0123456789",
      staleAfterMs: 3600_000,
      waitMs: 0,
    });
    if (!theirs.ok) throw new Error(theirs.detail);
    try {
      const { code, report } = await gate(r.root, "run", "--endpoint", r.vars.endpoint);
      expect(code).toBe(1);
      expect(status(report, "deploy.lock")).toEqual(["fail"]);
      expect(report.findings.filter((f) => f.data?.rollback)).toEqual([]);
      const rb = report.findings.find((f) => f.check === "deploy.rollback");
      expect(rb?.status).toBe("skip");
      expect(rb?.summary).toMatch(/nothing rolled back: this run did not change the host/);
      expect((await host.run(["test", "-e", `.deploy-gate/state/${r.vars.endpoint}.json`])).code).toBe(1);
    } finally {
      await theirs.lock.release();
      await host.close();
    }
  });

  it("verify --ref: a tag whose script carries other flags than the live engine lists the drift", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const deployed = await gate(r.root, "run", "--endpoint", r.vars.endpoint);
    expect(deployed.code).toBe(0);
    r.commit("drop tools", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(
        p,
        readFileSync(p, "utf8").replace(" --enable-auto-tool-choice --tool-call-parser qwen3_xml", " --max-num-seqs 8"),
      );
    });
    const { report } = await gate(r.root, "verify", "--endpoint", r.vars.endpoint, "--ref", "HEAD");
    const argv = report.findings.find((f) => f.check === "verify.argv");
    expect(JSON.stringify(argv)).toMatch(/max-num-seqs/);
  });
});
