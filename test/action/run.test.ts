// The action entry with @actions/core reading INPUT_* from the environment, a temp GITHUB_STEP_SUMMARY
// and GITHUB_OUTPUT, against a real temporary repository.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actionOptions, publish, runAction } from "../../src/action/run.js";
import { parseJumpHost } from "../../src/action/inputs.js";
import type { Finding, Report } from "../../src/domain/report/finding.js";
import { renderMarkdown, repoUrlOf, SUMMARY_LIMIT_BYTES } from "../../src/domain/report/markdown.js";
import { tempRepo, type TempRepo } from "../helpers/repo.js";
import { inActionTerms } from "../../src/action/action-terms.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "serve-repo");
const read = (p: string) => readFileSync(join(EXAMPLE, p), "utf8");
let repo: TempRepo;
let tmp: string;
const saved = { ...process.env };

beforeEach(() => {
  repo = tempRepo();
  tmp = mkdtempSync(join(tmpdir(), "dg-action-"));
  for (const f of ["step-summary.md", "output.txt"]) writeFileSync(join(tmp, f), "");
  Object.assign(process.env, {
    GITHUB_WORKSPACE: repo.dir,
    RUNNER_TEMP: tmp,
    GITHUB_STEP_SUMMARY: join(tmp, "step-summary.md"),
    GITHUB_OUTPUT: join(tmp, "output.txt"),
    INPUT_COMMAND: "preflight",
    "INPUT_FAIL-ON-WARN": "false",
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

/** What the step printed to the runner (workflow commands included) while fn ran. */
async function stdoutOf(fn: () => Promise<void>): Promise<string> {
  const writes: string[] = [];
  const orig = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((x: string) => (writes.push(String(x)), true)) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = orig;
  }
  return writes.join("");
}
const outputOf = (name: string) =>
  new RegExp(`(?:^|\\n)${name}<<[^\\n]+\\n([^\\n]*)\\n`).exec(readFileSync(join(tmp, "output.txt"), "utf8"))?.[1];
const reportOf = () => JSON.parse(readFileSync(outputOf("report")!, "utf8"));

/** The example repository, then a commit that drops --enable-auto-tool-choice (a contract flag). */
function dropTools(): void {
  repo.commit("good", {
    "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
    "deploy/frank-archon.service": read("deploy/frank-archon.service"),
    "deploy-gate.yml": read("deploy-gate.yml"),
  });
  repo.commit("drop tools", {
    "scripts/serve-archon.sh": read("scripts/serve-archon.sh").replace("--enable-auto-tool-choice ", ""),
  });
}

describe("the GitHub Action entry", () => {
  it("fails the step on a dropped contract, writes the summary table, the JSON report and the outputs", async () => {
    dropTools();
    await runAction();
    expect(process.exitCode).toBe(1);
    const summary = readFileSync(join(tmp, "step-summary.md"), "utf8");
    expect(summary.split("\n")[0]).toBe("## deploy-gate preflight: ❌ FAIL");
    expect(summary).toContain("**Failed:** `preflight.contracts`");
    expect(summary).toContain("#### `preflight.contracts` · `scripts/serve-archon.sh`");
    expect(summary).toContain("--enable-auto-tool-choice");
    const outputs = readFileSync(join(tmp, "output.txt"), "utf8");
    expect(outputs).toMatch(/verdict<<[^\n]+\nfail\n/);
    expect(outputs).toMatch(/failed-checks<<[^\n]+\n[^\n]*preflight\.contracts/);
    expect(reportOf().verdict).toBe("fail");
  });

  it("on a pull request, compares with the PR's base commit: a flag dropped in its first commit of two is found", async () => {
    const base = repo.commit("good", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
      "deploy/frank-archon.service": read("deploy/frank-archon.service"),
      "deploy-gate.yml": read("deploy-gate.yml"),
    });
    repo.commit("tune: drop prefix caching", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh").replace("--enable-prefix-caching", ""),
    });
    repo.commit("tune: comment", {
      "scripts/serve-archon.sh": `${read("scripts/serve-archon.sh").replace("--enable-prefix-caching", "")}# tuned\n`,
    });
    const eventPath = join(tmp, "event.json");
    writeFileSync(eventPath, JSON.stringify({ pull_request: { base: { sha: base, ref: "main" } } }));
    Object.assign(process.env, {
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_BASE_REF: "main",
    });
    await runAction();
    const report = reportOf() as {
      findings: { check: string; status: string; data?: { flag?: string; base?: string } }[];
    };
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
    process.env["INPUT_SSH-KEY"] =
      "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAsecretline1\nAAAAsecretline2\n-----END OPENSSH PRIVATE KEY-----";
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

  const failureOf = async () => {
    const writes: string[] = [];
    const orig = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((x: string) => (writes.push(String(x)), true)) as typeof process.stdout.write;
    try {
      await runAction();
    } finally {
      process.stdout.write = orig;
    }
    return (
      writes
        .join("")
        .split("\n")
        .find((l) => l.startsWith("::error::")) ?? ""
    );
  };

  it("reads booleans as the toolkit does and names the input on anything else", async () => {
    for (const [raw, want] of [
      ["true", true],
      ["True", true],
      ["TRUE", true],
      ["false", false],
      ["False", false],
      ["FALSE", false],
      ["", false],
    ] as const) {
      process.env["INPUT_DRY-RUN"] = raw;
      process.env["INPUT_SKIP-PREFLIGHT"] = raw;
      expect(actionOptions()).toMatchObject({ dryRun: want, skipPreflight: want });
    }
    for (const bad of ["yes", "1", "on", "tru"]) {
      process.env["INPUT_FAIL-ON-WARN"] = bad;
      expect(() => actionOptions()).toThrow(`input fail-on-warn: "${bad}" is not a boolean: use true or false`);
    }
    process.env["INPUT_FAIL-ON-WARN"] = "maybe";
    expect(await failureOf()).toBe('::error::input fail-on-warn: "maybe" is not a boolean: use true or false');
    expect(process.exitCode).toBe(1);
  });

  it("names the input in every input error", () => {
    const cases: [string, string, RegExp][] = [
      ["INPUT_PORT", "22x", /^input port: "22x" is not a port/],
      ["INPUT_PORT", "70000", /^input port: "70000" is not a port/],
      ["INPUT_USER", "bad user", /^input user: expected a user name/],
      ["INPUT_HOST", "a b", /^input host: expected a host name/],
      ["INPUT_HOST-KEY", "MD5:aa", /^input host-key: expected an OpenSSH fingerprint/],
      ["INPUT_CONNECT-TIMEOUT", "soon", /^input connect-timeout: "soon" is not a duration/],
      ["INPUT_LOCK-WAIT", "soon", /^input lock-wait: "soon" is not a duration/],
      ["INPUT_JUMP-HOST", "bastion", /^input jump-host: "bastion" is not user@address/],
      ["INPUT_JUMP-HOST", "ops@bastion", /^input jump-host-key: required with jump-host/],
      ["INPUT_JUMP-HOST-KEY", "SHA256:" + "A".repeat(43), /^input jump-host-key: given without jump-host/],
      ["INPUT_COMMAND", "deploy", /^input command: "deploy" is not one of preflight, run, verify, rollback/],
    ];
    for (const [k, v, msg] of cases) {
      process.env[k] = v;
      expect(() => actionOptions(), k).toThrow(msg);
      delete process.env[k];
    }
  });

  it("takes host, port, user, pins, a pinned jump host, a passphrase and a connect timeout from inputs", () => {
    Object.assign(process.env, {
      INPUT_HOST: "10.0.0.5",
      INPUT_PORT: "2222",
      INPUT_USER: "Deploy",
      "INPUT_HOST-KEY": "SHA256:" + "B".repeat(43),
      "INPUT_JUMP-HOST": "ops@[fd00::1]:2200",
      "INPUT_JUMP-HOST-KEY": "[fd00::1]:2200 ssh-ed25519 AAAAC3Nz",
      "INPUT_CONNECT-TIMEOUT": "45s",
      "INPUT_SSH-KEY-PASSPHRASE": "open sesame",
    });
    const env: NodeJS.ProcessEnv = {};
    const o = actionOptions(env);
    expect(o.hostOverride).toEqual({
      address: "10.0.0.5",
      port: 2222,
      user: "Deploy",
      hostKey: "SHA256:" + "B".repeat(43),
      jump: {
        address: "fd00::1",
        port: 2200,
        user: "ops",
        knownHosts: "[fd00::1]:2200 ssh-ed25519 AAAAC3Nz",
        hostKey: undefined,
      },
    });
    expect(o.connectTimeoutMs).toBe(45_000);
    expect(env.DEPLOY_GATE_SSH_PASSPHRASE).toBe("open sesame");
    expect(parseJumpHost("ops@bastion", "SHA256:" + "C".repeat(43))).toMatchObject({
      address: "bastion",
      port: 22,
      hostKey: "SHA256:" + "C".repeat(43),
    });
  });

  it("RUNNER_DEBUG=1 turns on the command trace", () => {
    const env: NodeJS.ProcessEnv = { RUNNER_DEBUG: "1" };
    actionOptions(env);
    expect(env.DEPLOY_GATE_TRACE).toBe("1");
    const quiet: NodeJS.ProcessEnv = {};
    actionOptions(quiet);
    expect(quiet.DEPLOY_GATE_TRACE).toBeUndefined();
  });

  it("speaks of inputs, not CLI flags, in messages and fixes", async () => {
    expect(inActionTerms("run works on one endpoint: pass --endpoint NAME (endpoints: a, b)")).toBe(
      "run works on one endpoint: set the endpoint input (endpoints: a, b)",
    );
    expect(inActionTerms("fix the preflight failures above (or pass --skip-preflight to see what the host says)")).toBe(
      "fix the preflight failures above (or set the skip-preflight input to see what the host says)",
    );
    repo.commit("two", {
      "deploy-gate.yml": "version: 1\nendpoints:\n  a: { script: a.sh }\n  b: { script: b.sh }\n",
      "a.sh": "#!/bin/bash\n",
      "b.sh": "#!/bin/bash\n",
    });
    process.env.INPUT_COMMAND = "verify";
    const err = await failureOf();
    expect(err).toContain("the endpoint input");
    expect(err).not.toContain("--endpoint");
  });

  it('rewrites only the tool\'s own "pass --flag" advice, never an engine flag or a CLI command', () => {
    expect(inActionTerms("restore `--config /models/vllm.yaml` (dropped in abc1234)")).toBe(
      "restore `--config /models/vllm.yaml` (dropped in abc1234)",
    );
    const lock =
      "Wait for it to finish (or pass --lock-wait 10m). If that deploy is dead, clear it: deploy-gate lock release --endpoint archon --force";
    expect(inActionTerms(lock)).toBe(
      "Wait for it to finish (or set the lock-wait input to 10m). If that deploy is dead, clear it: deploy-gate lock release --endpoint archon --force",
    );
    expect(inActionTerms("clear it: `deploy-gate lock release --endpoint archon --force`")).toBe(
      "clear it: `deploy-gate lock release --endpoint archon --force`",
    );
    expect(inActionTerms("finish the rollout: deploy-gate run --endpoint a --hosts b; or pass --ref REF.")).toBe(
      "finish the rollout: deploy-gate run --endpoint a --hosts b; or set the ref input.",
    );
    expect(inActionTerms("is a directory: pass --config with the deploy-gate.yml file itself")).toBe(
      "is a directory: set the config input with the deploy-gate.yml file itself",
    );
    expect(inActionTerms("cannot read the config (ENOENT); pass --config FILE or run without one")).toBe(
      "cannot read the config (ENOENT); set the config input or run without one",
    );
    expect(inActionTerms("or pass --base REF")).toBe("or set the base input");
    expect(inActionTerms("the engine flag in `pass --ref x` stays")).toBe("the engine flag in `pass --ref x` stays");
  });

  it("names the input for every other mention of a tool-only flag, never an engine's --config", async () => {
    expect(inActionTerms("if the removal is intended, update contracts and the base (--base)")).toBe(
      "if the removal is intended, update contracts and the base (the base input)",
    );
    expect(
      inActionTerms(
        "Wait for it to finish (a longer --lock-wait). If that deploy is dead, clear it: deploy-gate lock release --endpoint a --force",
      ),
    ).toBe(
      "Wait for it to finish (a longer lock-wait input). If that deploy is dead, clear it: deploy-gate lock release --endpoint a --force",
    );
    expect(inActionTerms("run verify without --hosts to compare every replica")).toBe(
      "run verify without the hosts input to compare every replica",
    );
    expect(inActionTerms("if dropping --config is intended, say so; --ref-file and `--ref x` stay")).toBe(
      "if dropping --config is intended, say so; --ref-file and `--ref x` stay",
    );
    repo.commit("one", {
      "deploy-gate.yml": "version: 1\nendpoints:\n  a: { script: a.sh }\n",
      "a.sh": "#!/bin/bash\n",
    });
    process.env.INPUT_ENDPOINT = "b";
    expect(await failureOf()).toMatch(/the endpoint input b is not in the config; endpoints: a$/);
    process.env.INPUT_ENDPOINT = "a";
    process.env.INPUT_REF = "v9";
    expect(await failureOf()).toBe(
      "::error::the ref input v9 does not exist in this repository (git tag -l; git fetch --tags; with actions/checkout use fetch-depth: 0)",
    );
  });

  it("with no ssh-key, deploy.connect says to set the ssh-key input, not that a key was refused", async () => {
    repo.commit("good", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
      "deploy/frank-archon.service": read("deploy/frank-archon.service"),
      "deploy-gate.yml": read("deploy-gate.yml"),
    });
    delete process.env.DEPLOY_GATE_SSH_KEY;
    Object.assign(process.env, { INPUT_COMMAND: "run", INPUT_HOST: "127.0.0.1", INPUT_PORT: "1" });
    await stdoutOf(runAction);
    const connect = reportOf().findings.find((f: Finding) => f.check === "deploy.connect");
    expect(connect.status).toBe("fail");
    expect(connect.summary).toContain("(the action's ssh-key input)");
    expect(connect.fix).toMatch(
      /^give the gate the endpoint.s SSH private key: in the action, set the ssh-key input from a repository secret \(e\.g\. secrets\.DEPLOY_SSH_KEY\)/,
    );
    expect(connect.fix).not.toContain("refused");
  });

  it("a host input without the user input (and no host: in the config) names the missing input", async () => {
    const noHost = read("deploy-gate.yml").replace(/^ *host: .*\n/m, "");
    repo.commit("good", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
      "deploy/frank-archon.service": read("deploy/frank-archon.service"),
      "deploy-gate.yml": noHost,
    });
    Object.assign(process.env, { INPUT_COMMAND: "verify", INPUT_HOST: "10.0.0.9" });
    expect(await failureOf()).toMatch(
      /^::error::endpoint archon has no host: in \S+deploy-gate.yml: give the host and user inputs together \(the user input is missing\), or add host: to the endpoint$/,
    );
    delete process.env.INPUT_HOST;
    expect(await failureOf()).toContain(
      "endpoints.archon.host: required by verify; add it to the endpoint (or give the action's host and user inputs)",
    );
  });

  it("a repository checked out under path: is found from the config input when the workspace is no repository", async () => {
    repo.commit("good", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
      "deploy/frank-archon.service": read("deploy/frank-archon.service"),
      "deploy-gate.yml": read("deploy-gate.yml"),
    });
    const ws = mkdtempSync(join(tmpdir(), "dg-ws-"));
    try {
      Object.assign(process.env, {
        GITHUB_WORKSPACE: ws,
        INPUT_CONFIG: join(relative(ws, repo.dir), "deploy-gate.yml"),
      });
      await stdoutOf(runAction);
      expect(outputOf("verdict")).toBe("pass");
      process.env.INPUT_CONFIG = "";
      expect(await failureOf()).toBe(
        `::error::${ws} is not inside a git repository: run from the repository that holds the serve scripts, or set the config input with its deploy-gate.yml (in a workflow: actions/checkout first)`,
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it("writes one report per step: two verify steps of one job keep both", () => {
    process.env.INPUT_COMMAND = "verify";
    const a = actionOptions({ GITHUB_ACTION: "__deploy-gate_deploy-gate", RUNNER_TEMP: tmp }).report;
    const b = actionOptions({ GITHUB_ACTION: "__deploy-gate_deploy-gate_2", RUNNER_TEMP: tmp }).report;
    expect(a).toBe(join(tmp, "deploy-gate-verify-deploy-gate_deploy-gate-report.json"));
    expect(b).not.toBe(a);
    // outside a runner step (no GITHUB_ACTION): a random name, still one per run
    expect(actionOptions({ RUNNER_TEMP: tmp }).report).not.toBe(actionOptions({ RUNNER_TEMP: tmp }).report);
  });

  it("on a bad input or config sets the verdict output to error and says what went wrong in the summary", async () => {
    process.env["INPUT_LOCK-WAIT"] = "soon";
    await runAction();
    expect(process.exitCode).toBe(1);
    expect(outputOf("verdict")).toBe("error");
    const summary = readFileSync(join(tmp, "step-summary.md"), "utf8");
    expect(summary).toBe(
      '## deploy-gate: ❗ error\n\nThe gate stopped before a verdict:\n\n```text\ninput lock-wait: "soon" is not a duration such as 90s or 10m\n```\n\n',
    );
  });

  it("names the failed checks in the step's own error", async () => {
    dropTools();
    const own = (await stdoutOf(runAction)).split("\n").filter((l) => l.startsWith("::error::"));
    const failed = outputOf("failed-checks")!.split(",");
    expect(own).toEqual([`::error::deploy-gate preflight: fail (${failed.join(", ")}); see the job summary`]);
    expect(failed).toContain("preflight.contracts");
  });

  it("annotates a dropped flag and a missing contract at a line of the script (the engine command)", async () => {
    dropTools();
    const out = await stdoutOf(runAction);
    const at = (check: string) =>
      out.split("\n").find((l) => l.startsWith("::error ") && l.includes(`deploy-gate ${check}`)) ?? "";
    for (const check of ["preflight.dropped-flags", "preflight.contracts"]) {
      expect(at(check), check).toContain("file=scripts/serve-archon.sh");
      expect(at(check), check).toMatch(/[ ,]line=\d+/);
    }
  });

  it("opens no empty log group: preflight prints no progress, so no group is opened around it", async () => {
    dropTools();
    const out = await stdoutOf(runAction);
    expect(out).not.toMatch(/::group::[^\n]*\n::endgroup::/);
    expect(out).not.toContain("::group::");
  });

  it("annotates a config error at its file and line, named from the workspace", async () => {
    repo.commit("bad config", {
      "scripts/serve-archon.sh": read("scripts/serve-archon.sh"),
      "ci/deploy-gate.yml": "version: 1\nendpoint:\n  a:\n    script: ../scripts/serve-archon.sh\n",
    });
    process.env.INPUT_CONFIG = "ci/deploy-gate.yml";
    const out = await stdoutOf(runAction);
    const lines = out.split("\n").filter((l) => l.startsWith("::error"));
    const annotation = lines.find((l) => l.includes("title=deploy-gate%3A invalid config")) ?? "";
    expect(annotation).toContain("file=ci/deploy-gate.yml");
    expect(annotation).toMatch(/[ ,]line=2[,:]/);
    expect(annotation).toMatch(/did you mean "endpoints"/);
  });

  const synthetic = (findings: Finding[]): Report => ({
    schema: 1,
    tool: { name: "deploy-gate", version: "0.1.0" },
    command: "preflight",
    endpoint: "archon",
    ref: { name: "main", sha: null },
    verdict: "fail",
    durationMs: 1,
    findings,
  });

  it("leaves room for the step's own error among GitHub's 10 error annotations", async () => {
    const fails = Array.from({ length: 15 }, (_, i): Finding => ({
      check: "preflight.traps",
      status: "fail",
      summary: `t${i}`,
      file: "s.sh",
      line: i + 1,
    }));
    const out = await stdoutOf(() => publish(synthetic(fails), actionOptions()));
    const errors = out.split("\n").filter((l) => l.startsWith("::error"));
    expect(errors).toHaveLength(9);
    expect(errors.at(-1)).toMatch(
      /^::error title=deploy-gate%3A more in the job summary::7 more failures at file lines/,
    );
  });

  it("keeps the summary file within GitHub's 1 MiB, the newline after it included", async () => {
    const at = (n: number) => synthetic([{ check: "preflight.traps", status: "fail", summary: "x".repeat(n) }]);
    const size = (n: number) => Buffer.byteLength(renderMarkdown(at(n), Infinity, { repoUrl: repoUrlOf(process.env) }));
    const exact = SUMMARY_LIMIT_BYTES - size(0); // a summary of exactly the limit when rendered in full
    expect(size(exact)).toBe(SUMMARY_LIMIT_BYTES);
    await stdoutOf(() => publish(at(exact), actionOptions()));
    expect(readFileSync(join(tmp, "step-summary.md")).length).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES);
  });
});
