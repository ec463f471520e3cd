// preflight's git-history checks on what red-team runs found: a script renamed in the commit that
// drops a flag, file names git quotes, a repository owned by another user, and line numbers of
// another revision's file. Real repositories, through the CLI's main().
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "..", "examples", "serve-repo");
const GOOD = readFileSync(join(EXAMPLE, "scripts/serve-archon.sh"), "utf8");
const UNIT = readFileSync(join(EXAMPLE, "deploy/frank-archon.service"), "utf8");
const CONFIG = readFileSync(join(EXAMPLE, "deploy-gate.yml"), "utf8");
const OLD = "scripts/serve-archon.sh";
const NEW = "scripts/archon.sh";
const NO_TRUST = GOOD.replace(" --trust-remote-code", "");

const repos: TempRepo[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  vi.unstubAllEnvs();
});

function exampleRepo(): TempRepo {
  const r = tempRepo();
  repos.push(r);
  r.commit("serve-archon: production shape", {
    [OLD]: GOOD,
    "deploy/frank-archon.service": UNIT,
    "deploy-gate.yml": CONFIG,
  });
  return r;
}

async function run(cwd: string, ...argv: string[]): Promise<{ code: number; err: string; report: Report | null }> {
  let out = "";
  let err = "";
  const code = await main([...argv, "--json"], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd,
  });
  return { code, err, report: code === 2 ? null : (JSON.parse(out) as Report) };
}

const byCheck = (r: Report, check: string): Finding[] => r.findings.filter((f) => f.check === check);

/** git mv, point the config at the new name, and drop --trust-remote-code: one commit. */
function renameAndDrop(r: TempRepo): void {
  r.git("mv", OLD, NEW);
  r.commit("rename the script, trim flags", { [NEW]: NO_TRUST, "deploy-gate.yml": CONFIG.replaceAll(OLD, NEW) });
}

describe("dropped-flags follows a rename", () => {
  it("compares with the script's old name at the commit before the rename", async () => {
    const r = exampleRepo();
    renameAndDrop(r);
    const { code, report } = await run(r.dir, "preflight");
    const [f] = byCheck(report!, "preflight.dropped-flags");
    expect(f).toMatchObject({ status: "fail", file: NEW, data: { flag: "--trust-remote-code", baseFile: OLD } });
    expect(f!.summary).toContain(`${OLD} line 35`);
    expect(f!.evidence![0]).toContain(`(where it was ${OLD})`);
    expect(code).toBe(1);
  });

  it("with an explicit --base too", async () => {
    const r = exampleRepo();
    renameAndDrop(r);
    const { report } = await run(r.dir, "preflight", "--base", "HEAD~1");
    expect(byCheck(report!, "preflight.dropped-flags")).toMatchObject([
      { status: "fail", data: { flag: "--trust-remote-code", baseFile: OLD } },
    ]);
    expect(byCheck(report!, "preflight.dropped-flags")[0]!.evidence).toContain(`HEAD~1:${OLD}:35: --trust-remote-code`);
  });

  it("through a rename staged in the work tree", async () => {
    const r = exampleRepo();
    r.git("mv", OLD, NEW);
    r.write(NEW, NO_TRUST);
    r.write("deploy-gate.yml", CONFIG.replaceAll(OLD, NEW));
    r.git("add", "-A");
    const { report } = await run(r.dir, "preflight");
    expect(byCheck(report!, "preflight.dropped-flags")).toMatchObject([
      { status: "fail", data: { flag: "--trust-remote-code", baseFile: OLD } },
    ]);
  });

  it("warns, not skips, when the script is at --base under no name", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("readme", { "README.md": "hi\n" });
    r.commit("script", { [OLD]: GOOD, "deploy/frank-archon.service": UNIT, "deploy-gate.yml": CONFIG });
    const { report } = await run(r.dir, "preflight", "--base", "HEAD~1");
    const [f] = byCheck(report!, "preflight.dropped-flags");
    expect(f).toMatchObject({ status: "warn", file: OLD });
    expect(f!.summary).toContain("is not at --base HEAD~1 under this name");
    expect(f!.fix).toContain(`git log --follow --oneline -- ${OLD}`);
  });
});

describe("dropped-flags on a script whose name git quotes", () => {
  for (const name of ['say "hi".sh', "back\\slash.sh", "tab\there.sh", "new\nline.sh"]) {
    it(JSON.stringify(name), async () => {
      const r = tempRepo();
      repos.push(r);
      // no config: the script is found by discovery, under its real name
      r.commit("add", { [`serve/${name}`]: GOOD });
      r.commit("trim", { [`serve/${name}`]: NO_TRUST });
      const { report } = await run(r.dir, "preflight");
      expect(byCheck(report!, "preflight.dropped-flags")).toMatchObject([
        { status: "fail", data: { flag: "--trust-remote-code" } },
      ]);
    });
  }
});

describe("a repository owned by another user", () => {
  it("exits 2 naming safe.directory, not 'not inside a git repository'", async () => {
    const r = exampleRepo();
    // git's own switch for this check: the same refusal as a checkout owned by another uid (CI containers)
    vi.stubEnv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1");
    vi.stubEnv("GIT_CONFIG_GLOBAL", "/dev/null");
    vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
    const { code, err } = await run(join(r.dir, "scripts"), "preflight");
    expect(code).toBe(2);
    expect(err).not.toContain("not inside a git repository");
    expect(err).not.toContain("internal error");
    expect(err).toContain(`git config --global --add safe.directory ${r.dir}`);
  });
});

describe("findings about another revision's file carry no annotation line", () => {
  // the tag's script has the wrong parser on line 37; HEAD's has two more lines above it
  function tagged(): TempRepo {
    const r = exampleRepo();
    r.commit("parser", { [OLD]: GOOD.replace("--tool-call-parser qwen3_xml", "--tool-call-parser hermes") });
    r.git("tag", "good-tag");
    r.commit("fixed, with notes", {
      [OLD]: GOOD.replace("set -euo pipefail\n", "set -euo pipefail\n# note\n# note\n"),
    });
    return r;
  }

  it("rollback-ref: the line lives in the evidence as tag:path:line", async () => {
    const r = tagged();
    r.commit("rollback", {
      "deploy-gate.yml": CONFIG.replace("    contracts:", "    rollback: { ref: good-tag }\n    contracts:"),
    });
    const { report } = await run(r.dir, "preflight");
    const [f] = byCheck(report!, "preflight.rollback-ref");
    expect(f).toMatchObject({ status: "fail", file: OLD });
    expect(f!.line).toBeUndefined();
    expect(f!.evidence![0]).toBe(`good-tag:${OLD}:37`);
  });

  it("--ref: the same", async () => {
    const r = tagged();
    const { report } = await run(r.dir, "preflight", "--ref", "good-tag");
    const f = byCheck(report!, "preflight.contracts").find((x) => x.status === "fail");
    expect(f!.line).toBeUndefined();
    expect(f!.evidence![0]).toBe(`good-tag:${OLD}:37`);
  });
});

describe("contracts after a rename", () => {
  it("a contract flag dropped before a rename does not read as 'never in the history': the message points at --follow", async () => {
    const r = exampleRepo();
    r.commit("drop the tool parser", { [OLD]: GOOD.replace(" --tool-call-parser qwen3_xml", "") });
    r.commit("rename the script", {
      [NEW]: readFileSync(join(r.dir, OLD), "utf8"),
      "deploy-gate.yml": CONFIG.replaceAll(OLD, NEW),
    });
    const { report } = await run(r.dir, "preflight");
    const f = byCheck(report!, "preflight.contracts").find((x) => x.status === "fail")!;
    expect(f.summary).toMatch(
      /--tool-call-parser is missing; it is nowhere in the history of scripts\/archon\.sh under this name \(if the script was renamed, git log --follow -- scripts\/archon\.sh shows its older history\)/,
    );
  });
});
