// `deploy-gate logs` against the sandbox host: the journal of a real unit and container, decoded, one boot
// at a time with its diagnosis; --follow streams a restart live and ends cleanly on abort (as on SIGINT).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { parseCli } from "../../src/cli/args.js";
import { runDeploy } from "../../src/stages/deploy/deploy.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { logsCommand } from "../../src/commands/logs/logs.js";
import type { Options } from "../../src/commands/options.js";
import { makeSandboxRepo, removeDeployed, withSandboxHost, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { waitUntil } from "./support/units.js";

let nextPort = 7940; // this file's port range: 7940-7949
const OWNER = "e2e@sandbox (logs)";

interface LogsJson {
  boot: { index: number; fromCurrent: number; of: number };
  lines: { text: string }[];
  diagnosis: { class: string; decisive: string | null };
}

async function logs(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["logs", ...argv], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd,
  });
  return { code, out, err };
}

/** A condition met within a generous deadline (units.ts's waitUntil, for booleans). */
const until = (what: string, cond: () => boolean | Promise<boolean>, ms: number) =>
  waitUntil(what, ms, async () => ((await cond()) ? true : null));

describe("deploy-gate logs on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let r: SandboxRepo;
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    const name = fresh("dg-logs");
    // The first deploy dies of an OOM (and keeps restarting), the second one is healthy.
    r = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: nextPort++,
      address: s.address,
      startLimitBurst: 100,
      fakeEnv: { FAKE_BOOT_SECONDS: "1", FAKE_FAIL: "oom", FAKE_OOM_TRIED_GIB: "4", FAKE_OOM_FREE_GIB: "1.5" },
    });
    r.commit("pin the sandbox host", (root) => {
      const p = join(root, "deploy-gate.yml");
      writeFileSync(p, withSandboxHost(readFileSync(p, "utf8"), s));
    });
    const bad = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(bad.ok).toBe(false);
    r.commit("healthy", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(
        p,
        readFileSync(p, "utf8").replace(
          /-e FAKE_FAIL=oom -e FAKE_OOM_TRIED_GIB=4 -e FAKE_OOM_FREE_GIB=1\.5/,
          "-e FAKE_BOOT_SECONDS=2",
        ),
      );
    });
    const good = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(good.findings.filter((f) => f.status === "fail")).toEqual([]);
  }, 240_000);
  afterAll(async () => {
    if (r) {
      await removeDeployed(host, r);
      r.cleanup();
    }
    await host?.close();
  });

  it("the current boot: decoded lines (no ANSI, no \\r, no podman twin), and its diagnosis: ready", async (ctx) => {
    sandboxOrSkip(ctx);
    const { code, out, err } = await logs(r.root, "--endpoint", r.vars.endpoint, "--json");
    expect(err).toBe("");
    expect(code).toBe(0);
    const j = JSON.parse(out) as LogsJson;
    expect(j.boot.fromCurrent).toBe(0);
    expect(j.boot.of).toBeGreaterThanOrEqual(2);
    expect(j.diagnosis.class).toBe("ready");
    const texts = j.lines.map((l) => l.text);
    expect(texts.some((t) => t.includes("Application startup complete."))).toBe(true);
    expect(texts.every((t) => !t.includes("\x1b") && !t.includes("\r"))).toBe(true);
    // an attached podman run logs each line twice (conmon and the unit's stdout): printed once
    expect(texts.filter((t) => t.includes("Application startup complete.")).length).toBe(1);
    expect(texts.some((t) => t.includes("OutOfMemoryError"))).toBe(false); // the earlier boots stay out
  });

  it("earlier boots: one of them is the OOM, with its decisive line; text mode prints header, lines, diagnosis", async (ctx) => {
    sandboxOrSkip(ctx);
    const found: string[] = [];
    for (let n = 1; n <= 6 && found.length === 0; n++) {
      const { code, out } = await logs(r.root, "--endpoint", r.vars.endpoint, `--boot=-${n}`, "--json"); // `=`: a value starting with "-" is not taken as a flag
      if (code !== 0) break;
      const j = JSON.parse(out) as LogsJson;
      if (j.diagnosis.class === "oom") found.push(j.diagnosis.decisive ?? "");
    }
    expect(found[0]).toMatch(/CUDA out of memory\. Tried to allocate 4\.00 GiB/);
    const text = await logs(r.root, "--endpoint", r.vars.endpoint, "--boot", "previous", "--since", "30m");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(new RegExp(`^-- ${r.vars.endpoint}: boot \\d+ of \\d+ \\(-1 from current\\)`));
    expect(text.out).toMatch(/\n-- diagnosis of this boot --\n/);
    const none = await logs(r.root, "--endpoint", r.vars.endpoint, "--boot=-400");
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/none is 400 before the current one/);
  });

  it("--follow streams a restart live, then ends cleanly on abort: the remote journalctl is gone", async (ctx) => {
    sandboxOrSkip(ctx);
    const opts = parseCli(["logs", "--endpoint", r.vars.endpoint, "--follow"], r.root) as Options;
    const ac = new AbortController();
    let out = "";
    let err = "";
    const following = logsCommand(opts, {
      out: (x) => (out += x),
      err: (x) => (err += x),
      colour: false,
      signal: ac.signal,
    });
    await until("the current boot's backlog", () => out.includes("Application startup complete."), 60_000);
    const before = out.length;
    await host.runShell(`systemctl reset-failed ${r.service}; systemctl restart ${r.service}`, { timeoutMs: 60_000 });
    await until(
      "the restarted boot, live",
      () =>
        /-- dg-logs-\w+: boot \d+ · /.test(out.slice(before)) &&
        out.slice(before).includes("Application startup complete."),
      90_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; printed since the restart:\n${out.slice(before).slice(-3000)}\nstderr: ${err}`);
    });
    ac.abort();
    expect(await following).toBe(0);
    expect(err).toBe("");
    expect(out.slice(before)).toMatch(/-- diagnosis of this boot --\nREADY/);
    // each line of the new boot once: podman's twin copy is never printed again after a pause
    const restarted = out
      .slice(before)
      .split("\n")
      .filter((l) => /Started server process|Waiting for application startup|Application startup complete/.test(l));
    expect(restarted.length).toBeGreaterThan(0);
    expect(new Set(restarted).size, restarted.join("\n")).toBe(restarted.length);
    // pgrep's own shell is not listed: only journalctl processes, filtered here
    const left = await host.run(["pgrep", "-a", "journalctl"], { timeoutMs: 20_000 });
    expect(left.stdout.split("\n").filter((l) => l.includes("--follow") && l.includes(r.vars.container))).toEqual([]);
  }, 180_000);
});
