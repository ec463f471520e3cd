// The example workflows and CI's own: actionlint-clean (with .github/actionlint.yaml's runner labels),
// current major versions of the actions they call, this action pinned by commit, inputs that exist.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VERSION } from "../../src/lib/version.js";

const ROOT = join(import.meta.dirname, "..", "..");
const EXAMPLES = join(ROOT, "examples", "workflows");
const files = [...readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f)), join(ROOT, ".github", "workflows", "ci.yml")];
// The current major of each action the workflows call (update with the actions' releases).
const CURRENT: Record<string, string> = { "actions/checkout": "v7", "actions/setup-node": "v7" };
const scratch = mkdtempSync(join(tmpdir(), "dg-actionlint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const actionlint = (...paths: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "scripts", "actionlint.mjs"), ...paths], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
const steps = (file: string): Step[] =>
  Object.values(parse(readFileSync(file, "utf8")).jobs as Record<string, { steps: Step[] }>).flatMap((j) => j.steps);

describe("workflows", () => {
  it("pass actionlint", () => {
    const r = actionlint(...files);
    expect(r.stdout, r.stderr).toBe(`actionlint: ${files.length} file(s), 0 problem(s)\n`);
    expect(r.status).toBe(0);
  }, 60_000);

  it("actionlint really lints: an unknown runner label and a bad expression are reported", () => {
    const bad = join(scratch, "bad.yml");
    writeFileSync(
      bad,
      "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gpu-box]\n    steps:\n      - run: echo ${{ github.evnt.name }}\n",
    );
    const r = actionlint(bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/label "gpu-box" is unknown/);
    expect(r.stdout).toMatch(/property "evnt" is not defined/);
  }, 60_000);

  it("call the current major of each action, and pin deploy-gate to this version's release tag", () => {
    const uses = files
      .flatMap(steps)
      .map((s) => s.uses)
      .filter((u): u is string => Boolean(u));
    expect(uses.length).toBeGreaterThan(5);
    for (const u of uses) {
      if (u === "../") continue;
      const [name, ref] = u.split("@") as [string, string];
      if (name === "deploy-gate/deploy-gate") expect(ref, u).toBe(`v${VERSION}`);
      else expect(ref, u).toBe(CURRENT[name]);
    }
  });

  it("pin a release whose action.yml declares every input the step gives (a stale pin silently drops inputs)", () => {
    const pinned = files.flatMap(steps).filter((s) => s.uses?.startsWith("deploy-gate/deploy-gate@"));
    expect(pinned.length).toBeGreaterThan(2);
    for (const s of pinned) {
      const sha = s.uses!.split("@")[1]!;
      // the tag once made (RELEASING.md); before that, the action.yml the tag will be made on
      const r = spawnSync("git", ["-C", ROOT, "show", `${sha}:action.yml`], { encoding: "utf8" });
      const text = r.status === 0 ? r.stdout : readFileSync(join(ROOT, "action.yml"), "utf8");
      const declared = new Set(Object.keys(parse(text).inputs));
      expect(
        Object.keys(s.with ?? {}).filter((k) => !declared.has(k)),
        `inputs ${sha.slice(0, 10)}'s action.yml lacks`,
      ).toEqual([]);
    }
  });

  it("give this action only inputs it declares", () => {
    const declared = new Set(Object.keys(parse(readFileSync(join(ROOT, "action.yml"), "utf8")).inputs));
    const given = files
      .flatMap(steps)
      .filter((s) => s.uses?.startsWith("deploy-gate/") || s.uses === "../")
      .flatMap((s) => Object.keys(s.with ?? {}));
    expect(given.length).toBeGreaterThan(5);
    expect(given.filter((k) => !declared.has(k))).toEqual([]);
  });
});
