// preflight end to end on real temporary git repositories, through the CLI's main().
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { shallowClone, tempRepo, type TempRepo } from "../../helpers/repo.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "..", "examples", "serve-repo");
const GOOD = readFileSync(join(EXAMPLE, "scripts/serve-archon.sh"), "utf8");
const UNIT = readFileSync(join(EXAMPLE, "deploy/frank-archon.service"), "utf8");
const CONFIG = readFileSync(join(EXAMPLE, "deploy-gate.yml"), "utf8");

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

function exampleRepo(): TempRepo {
  const r = tempRepo();
  repos.push(r);
  r.commit("serve-archon: production shape", {
    "scripts/serve-archon.sh": GOOD,
    "deploy/frank-archon.service": UNIT,
    "deploy-gate.yml": CONFIG,
  });
  return r;
}

async function run(
  cwd: string,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string; report: Report | null }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env: {}, cwd });
  let report: Report | null = null;
  if (argv.includes("--json") && code !== 2) report = JSON.parse(out) as Report;
  return { code, out, err, report };
}

const byCheck = (r: Report, check: string, status?: string): Finding[] =>
  r.findings.filter((f) => f.check === check && (!status || f.status === status));

describe("deploy-gate preflight on a real repository", () => {
  it("passes the example serve-scripts repo (every check ran, nothing failed)", async () => {
    const r = exampleRepo();
    const { code, report } = await run(r.dir, "preflight", "--json");
    expect(report!.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    expect(byCheck(report!, "preflight.contracts", "pass")[0]!.summary).toContain("5 of 5 contract flags present");
    expect(byCheck(report!, "preflight.traps", "pass")).toHaveLength(1);
    expect(report!.endpoint).toBe("archon");
    expect(report!.ref.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("traces a dropped contract to the commit that removed it, with the lines to restore", async () => {
    const r = exampleRepo();
    const good = r.git("rev-parse", "HEAD").trim();
    const dropping = r.commit("tune seqs", {
      "scripts/serve-archon.sh": GOOD.replace("  --reasoning-parser qwen3 \\\n", "").replace(
        "--max-num-seqs 4",
        "--max-num-seqs 4",
      ),
    });
    r.commit("unrelated", { "README.md": "hi\n" });
    const { code, report } = await run(r.dir, "preflight", "--json");
    expect(code).toBe(1);
    const [f] = byCheck(report!, "preflight.contracts", "fail");
    expect(f!.data).toMatchObject({ flag: "--reasoning-parser", droppedIn: dropping, lastPresent: good });
    expect(f!.evidence!.join("\n")).toContain("  -   --reasoning-parser qwen3 \\");
    const ctx = f!.evidence!.filter((l) => /^[ >]\s*\d+ \| /.test(l));
    expect(ctx).toHaveLength(7);
    expect(ctx[3]).toMatch(/^>\s*\d+ \|\s+--reasoning-parser qwen3/);
    expect(f!.fix).toContain(`git show ${good.slice(0, 10)}:scripts/serve-archon.sh`);
    expect(f!.fix).toContain(`git show ${dropping.slice(0, 10)} -- scripts/serve-archon.sh | git apply -R`);
    // the restore command in the fix really restores the line, and preflight then passes the contract
    const cmd = /`(git show \w+ -- scripts\/serve-archon\.sh \| git apply -R)`/.exec(f!.fix!)![1]!;
    execFileSync("bash", ["-c", cmd], { cwd: r.dir });
    expect(readFileSync(join(r.dir, "scripts/serve-archon.sh"), "utf8")).toBe(GOOD);
    const after = await run(r.dir, "preflight", "--json");
    expect(byCheck(after.report!, "preflight.contracts", "fail")).toEqual([]);
  });

  it("fails a contract whose value changed and names both values", async () => {
    const r = exampleRepo();
    r.commit("switch parser", {
      "scripts/serve-archon.sh": GOOD.replace("--tool-call-parser qwen3_xml", "--tool-call-parser hermes"),
    });
    const { report } = await run(r.dir, "preflight", "--json");
    const [f] = byCheck(report!, "preflight.contracts", "fail");
    expect(f!.summary).toContain("--tool-call-parser is hermes, the contract says qwen3_xml");
    expect(f!.line).toBeGreaterThan(20);
  });

  it("fails an untracked file (clean-tree) and names it", async () => {
    const r = exampleRepo();
    r.write("scratch/notes.txt", "x");
    const { code, report } = await run(r.dir, "preflight", "--json");
    expect(code).toBe(1);
    expect(byCheck(report!, "preflight.clean-tree", "fail")[0]!.evidence).toEqual(["?? scratch/notes.txt (untracked)"]);
  });

  it("explains a shallow clone and never passes the history checks silently", async () => {
    const r = exampleRepo();
    r.commit("drop tools", { "scripts/serve-archon.sh": GOOD.replace("--enable-auto-tool-choice ", "") });
    const s = shallowClone(r.dir);
    repos.push(s);
    const { code, report } = await run(s.dir, "preflight", "--json");
    expect(code).toBe(1);
    expect(byCheck(report!, "preflight.history", "fail")[0]!.fix).toContain("fetch-depth: 0");
    expect(byCheck(report!, "preflight.contracts", "fail")[0]!.summary).toContain("shallow clone");
    expect(byCheck(report!, "preflight.dropped-flags")[0]!.status).toBe("skip");
  });

  it("points at the line of a bash syntax error", async () => {
    const r = exampleRepo();
    r.commit("oops", {
      "scripts/serve-archon.sh": GOOD.replace(
        'mkdir -p "$CACHE_DIR"',
        'if [ -n "$CACHE_DIR" ]; then mkdir -p "$CACHE_DIR"',
      ),
    });
    const { report } = await run(r.dir, "preflight", "--json");
    const [f] = byCheck(report!, "preflight.bash-syntax", "fail");
    expect(f!.file).toBe("scripts/serve-archon.sh");
    expect(f!.line).toBeGreaterThan(1);
  });

  it("dropped-flags: a critical flag fails, another flag warns, against the commit before the change", async () => {
    const r = exampleRepo();
    const cfg = CONFIG.replace(/flags:\n(\s+- .*\n)+/, "flags: []\n");
    r.commit("no contracts", { "deploy-gate.yml": cfg });
    r.commit("trim flags", {
      "scripts/serve-archon.sh": GOOD.replace("--enable-prefix-caching ", "").replace(
        " --tool-call-parser qwen3_xml",
        "",
      ),
    });
    const { report } = await run(r.dir, "preflight", "--json");
    const d = byCheck(report!, "preflight.dropped-flags");
    const status = Object.fromEntries(d.map((f) => [f.data!.flag, f.status]));
    expect(status).toEqual({ "--enable-prefix-caching": "warn", "--tool-call-parser": "fail" });
    // --tool-call-parser gone also trips the auto-tool-choice trap
    expect(byCheck(report!, "preflight.traps", "fail").map((f) => f.data!.rule)).toContain("auto-tool-choice");
  });

  it("dropped-flags against a full commit id (a pull request's base.sha) shows it as 10 characters", async () => {
    const r = exampleRepo();
    const base = r.git("rev-parse", "HEAD").trim();
    r.commit("trim flags", { "scripts/serve-archon.sh": GOOD.replace(" --tool-call-parser qwen3_xml", "") });
    const { report } = await run(r.dir, "preflight", "--json", "--base", base);
    const f = byCheck(report!, "preflight.dropped-flags", "fail").find((x) => x.data!.flag === "--tool-call-parser")!;
    expect(f.summary).toContain(`at ${base.slice(0, 10)} (line`);
    expect(f.summary).not.toContain(base);
    expect(f.data!.base).toBe(base);
  });

  it("checks the rollback ref: present and good passes, missing fails", async () => {
    const r = exampleRepo();
    r.git("tag", "archon-good");
    const withRollback = CONFIG.replace("    contracts:", "    rollback: { ref: archon-good }\n    contracts:");
    r.commit("rollback target", { "deploy-gate.yml": withRollback });
    let { report } = await run(r.dir, "preflight", "--json");
    expect(byCheck(report!, "preflight.rollback-ref")[0]).toMatchObject({ status: "pass" });
    r.commit("bad rollback", { "deploy-gate.yml": withRollback.replace("archon-good", "archon-missing") });
    ({ report } = await run(r.dir, "preflight", "--json"));
    expect(byCheck(report!, "preflight.rollback-ref")[0]).toMatchObject({ status: "fail" });
    expect(byCheck(report!, "preflight.dropped-flags")[0]!.summary).toContain("base ref archon-missing not found");
  });

  it("without a config, finds the serve scripts itself and --endpoint picks one", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("scripts", {
      "serve/a.sh": GOOD,
      "serve/b.sh": GOOD.replace("7770", "7771"),
      "tools/lint.sh": "#!/bin/bash\necho lint\n",
    });
    let { report } = await run(r.dir, "preflight", "--json");
    expect([...new Set(report!.findings.map((f) => f.data?.endpoint).filter(Boolean))]).toEqual(["a", "b"]);
    expect(byCheck(report!, "preflight.contracts")[0]!.status).toBe("skip");
    ({ report } = await run(r.dir, "preflight", "--json", "--endpoint", "b"));
    expect([...new Set(report!.findings.map((f) => f.data?.endpoint).filter(Boolean))]).toEqual(["b"]);
  });

  it("exits 2 on a bad config, naming file, line and key", async () => {
    const r = exampleRepo();
    r.commit("typo", { "deploy-gate.yml": CONFIG.replace("endpoints:", "endpionts:") });
    const { code, out, err } = await run(r.dir, "preflight", "--json");
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(/deploy-gate\.yml:3: endpionts: unknown key "endpionts": did you mean "endpoints"\?/);
  });

  it("--json prints exactly the report and --report writes the same", async () => {
    const r = exampleRepo();
    const file = join(r.dir, "..", `report-${process.pid}.json`);
    const { out } = await run(r.dir, "preflight", "--json", "--report", file);
    expect(JSON.parse(out).schema).toBe(1);
    expect(readFileSync(file, "utf8")).toBe(out);
  });
});
