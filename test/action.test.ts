// The action entry with @actions/core reading INPUT_* from the environment, a temp GITHUB_STEP_SUMMARY
// and GITHUB_OUTPUT, against a real temporary repository.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "../src/action.js";
import { tempRepo, type TempRepo } from "./helpers/repo.js";

const EXAMPLE = join(import.meta.dirname, "..", "examples", "serve-repo");
const read = (p: string) => readFileSync(join(EXAMPLE, p), "utf8");
let repo: TempRepo;
let tmp: string;
const saved = { ...process.env };

beforeEach(() => {
  repo = tempRepo();
  tmp = mkdtempSync(join(tmpdir(), "dg-action-"));
  for (const f of ["step-summary.md", "output.txt"]) writeFileSync(join(tmp, f), "");
  Object.assign(process.env, {
    GITHUB_WORKSPACE: repo.dir, RUNNER_TEMP: tmp, GITHUB_STEP_SUMMARY: join(tmp, "step-summary.md"), GITHUB_OUTPUT: join(tmp, "output.txt"),
    INPUT_COMMAND: "preflight", "INPUT_FAIL-ON-WARN": "false",
    // this suite may itself run in a pull_request job: the PR base default is opted into per test
    GITHUB_EVENT_NAME: "push",
  });
  process.exitCode = undefined;
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  repo.cleanup();
  rmSync(tmp, { recursive: true, force: true });
  process.exitCode = undefined;
});

describe("the GitHub Action entry", () => {
  it("fails the step on a dropped contract, writes the summary table, the JSON report and the outputs", async () => {
    repo.commit("good", { "scripts/serve-archon.sh": read("scripts/serve-archon.sh"), "deploy/frank-archon.service": read("deploy/frank-archon.service"), "deploy-gate.yml": read("deploy-gate.yml") });
    repo.commit("drop tools", { "scripts/serve-archon.sh": read("scripts/serve-archon.sh").replace("--enable-auto-tool-choice ", "") });
    await runAction();
    expect(process.exitCode).toBe(1);
    const summary = readFileSync(join(tmp, "step-summary.md"), "utf8");
    expect(summary.split("\n")[0]).toBe("## deploy-gate preflight: ❌ FAIL");
    expect(summary).toContain("| ❌ | `preflight.contracts` |");
    expect(summary).toContain("--enable-auto-tool-choice");
    const outputs = readFileSync(join(tmp, "output.txt"), "utf8");
    expect(outputs).toMatch(/verdict<<[^\n]+\nfail\n/);
    expect(outputs).toMatch(/failed-checks<<[^\n]+\n[^\n]*preflight\.contracts/);
    const report = JSON.parse(readFileSync(join(tmp, "deploy-gate-preflight-report.json"), "utf8"));
    expect(report.verdict).toBe("fail");
  });

  it("on a pull request, compares with the PR's base commit: a flag dropped in its first commit of two is found", async () => {
    const base = repo.commit("good", { "scripts/serve-archon.sh": read("scripts/serve-archon.sh"), "deploy/frank-archon.service": read("deploy/frank-archon.service"), "deploy-gate.yml": read("deploy-gate.yml") });
    repo.commit("tune: drop prefix caching", { "scripts/serve-archon.sh": read("scripts/serve-archon.sh").replace("--enable-prefix-caching", "") });
    repo.commit("tune: comment", { "scripts/serve-archon.sh": `${read("scripts/serve-archon.sh").replace("--enable-prefix-caching", "")}# tuned\n` });
    const eventPath = join(tmp, "event.json");
    writeFileSync(eventPath, JSON.stringify({ pull_request: { base: { sha: base, ref: "main" } } }));
    Object.assign(process.env, { GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: eventPath, GITHUB_BASE_REF: "main" });
    await runAction();
    const report = JSON.parse(readFileSync(join(tmp, "deploy-gate-preflight-report.json"), "utf8")) as { findings: { check: string; status: string; data?: { flag?: string; base?: string } }[] };
    const dropped = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(dropped.map((f) => [f.data?.flag, f.data?.base])).toEqual([["--enable-prefix-caching", base]]);
  });

  it("rejects a bad input with exit 1 and a message naming the input", async () => {
    process.env.INPUT_COMMAND = "deploy";
    await runAction();
    expect(process.exitCode).toBe(1);
    process.env.INPUT_COMMAND = "preflight";
    process.env["INPUT_LOCK-WAIT"] = "soon";
    await runAction();
    expect(process.exitCode).toBe(1);
  });

  it("masks every line of the SSH key and hands it over through the environment", async () => {
    repo.commit("good", { "scripts/serve-archon.sh": read("scripts/serve-archon.sh") });
    process.env["INPUT_SSH-KEY"] = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAsecretline1\nAAAAsecretline2\n-----END OPENSSH PRIVATE KEY-----";
    const writes: string[] = [];
    const orig = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (writes.push(String(s)), true)) as typeof process.stdout.write;
    try {
      await runAction();
    } finally {
      process.stdout.write = orig;
    }
    const out = writes.join("");
    expect(out).toContain("::add-mask::AAAAsecretline1");
    expect(out).toContain("::add-mask::AAAAsecretline2");
    expect(process.env.DEPLOY_GATE_SSH_KEY).toContain("AAAAsecretline2");
  });
});
