// The field scorer on small planted inputs: matching, tolerated findings, targets by name, drops, and the runner
// skipping cleanly when the cache is absent (CI has none).
import { describe, expect, it } from "vitest";
import {
  dropHit,
  dropVerdict,
  fieldTargetsMet,
  matchTargets,
  scoreField,
  type EntryRun,
} from "../../bench/field/score.js";
import { runField } from "../../bench/field/run.js";
import type { FieldDrop, FieldFile } from "../../bench/field/key.js";
import type { Finding } from "../../src/domain/report/finding.js";

const file = (over: Partial<FieldFile>): FieldFile => ({
  repo: "o/r",
  path: "x",
  commit: "c",
  kind: "script",
  serves: true,
  expect: [],
  ...over,
});
const run = (name: string, f: FieldFile, over: Partial<EntryRun> = {}): EntryRun => ({
  name,
  file: f,
  discovered: true,
  emitted: [],
  targets: [],
  ...over,
});
const trap = (rule: string, line: number) => ({ check: "preflight.traps", rule, line, summary: rule });
const drop = (over: Partial<FieldDrop> = {}): FieldDrop => ({
  repo: "o/r",
  commit: "a".repeat(40),
  parent: "b".repeat(40),
  path: "serve.sh",
  flag: "--x",
  parentLine: 7,
  renamedTo: null,
  ...over,
});

describe("field scoring", () => {
  it("counts a finding at the expected rule and line as true, another as false, a tolerated one as neither", () => {
    const f = file({
      expect: [{ check: "preflight.traps", rule: "broad-kill", line: 5 }],
      tolerate: [{ rule: "memlock", line: 9 }],
    });
    const s = scoreField(
      [run("a.sh", f, { emitted: [trap("broad-kill", 5), trap("memlock", 9), trap("name-reuse", 3)] })],
      [],
    );
    expect(s.byKind.script!.precision).toEqual({ hit: 1, of: 2 });
    expect(s.byKind.script!.recall).toEqual({ hit: 1, of: 1 });
    expect(s.falsePositives.map((x) => x.finding)).toEqual([expect.stringMatching(/^name-reuse@3/)]);
  });

  it("keeps kinds apart and names a miss", () => {
    const s = scoreField(
      [
        run(
          "u.service",
          file({ kind: "unit", expect: [{ check: "preflight.traps", rule: "restart-on-failure", line: 10 }] }),
        ),
        run("c.yml", file({ kind: "compose" }), { emitted: [trap("memlock", 4)] }),
      ],
      [],
    );
    expect(s.byKind.unit!.recall).toEqual({ hit: 0, of: 1 });
    expect(s.byKind.compose!.precision).toEqual({ hit: 0, of: 1 });
    expect(s.misses).toEqual([{ entry: "u.service", finding: "restart-on-failure@10" }]);
    expect(fieldTargetsMet(s)).toBe(false);
  });

  it("matches targets by name (a Kubernetes part's last segment) before order, and scores flags and their lines", () => {
    const f = file({
      kind: "kubernetes",
      targets: [
        { engine: "vllm", name: "worker", image: null, runtime: "kubernetes", flags: [{ flag: "--tp", line: 9 }] },
        { engine: "vllm", name: "leader", image: null, runtime: "kubernetes", flags: [{ flag: "--port", line: 4 }] },
      ],
    });
    const r = run("k.yaml", f, {
      targets: [
        { name: "LeaderWorkerSet/x/leader", flags: [{ flag: "--port", line: 5 }] },
        { name: "LeaderWorkerSet/x/worker", flags: [{ flag: "--tensor-parallel-size", line: 9 }] },
      ],
    });
    expect(matchTargets(r).map((m) => m.got?.name)).toEqual(["LeaderWorkerSet/x/worker", "LeaderWorkerSet/x/leader"]);
    const s = scoreField([r], []);
    // --tp and --tensor-parallel-size are one flag; --port is read one line off
    expect(s.byKind.kubernetes!.flagsFound).toEqual({ hit: 2, of: 2 });
    expect(s.byKind.kubernetes!.flagsAtLine).toEqual({ hit: 1, of: 2 });
  });

  it("counts discovery of serving files and flags a non-serving file found", () => {
    const s = scoreField(
      [run("a.sh", file({}), { discovered: false }), run("client.sh", file({ serves: false }), { discovered: true })],
      [],
    );
    expect(s.discovery).toEqual({ hit: 0, of: 1 });
    expect(s.undiscovered).toEqual(["a.sh"]);
    expect(s.wronglyDiscovered).toEqual(["client.sh"]);
  });

  it("counts a chart reported as not rendering neither found nor wrongly found, and names it", () => {
    const s = scoreField(
      [
        run("broken-chart", file({ serves: false, kind: "helm" }), { discovered: false, unrendered: true }),
        run("serving-chart", file({ kind: "helm" }), { discovered: false, unrendered: true }),
      ],
      [],
    );
    expect(s.wronglyDiscovered).toEqual([]);
    expect(s.undiscovered).toEqual(["serving-chart"]);
    expect(s.unrendered).toEqual(["broken-chart", "serving-chart"]);
  });

  it("judges a drop by its parent line, and a respelling by silence", () => {
    expect(dropVerdict({ drop: drop(), reported: { status: "warn", baseLine: 7 } })).toBeNull();
    expect(dropVerdict({ drop: drop(), reported: { status: "warn", baseLine: 6 } })).toMatch(/line 6.*line 7/);
    expect(dropVerdict({ drop: drop(), reported: null })).toMatch(/not reported/);
    expect(dropVerdict({ drop: drop({ renamedTo: "-c" }), reported: null })).toBeNull();
    expect(dropVerdict({ drop: drop({ renamedTo: "-c" }), reported: { status: "warn", baseLine: 7 } })).toMatch(
      /respelt/,
    );
  });
});

describe("drop hit", () => {
  it("takes the report of the part whose base line holds the dropped flag, when several parts dropped it", () => {
    const said = (baseLine: number, part: string): Finding => ({
      check: "preflight.dropped-flags",
      status: "warn",
      summary: `${part}: --tp gone`,
      file: "compose.yaml",
      data: { flag: "--tp", baseLine, part },
    });
    const findings = [said(45, "svc-1"), said(64, "svc-2"), said(83, "svc-3")];
    expect(dropHit(findings, drop({ path: "compose.yaml", flag: "--tp", parentLine: 64 }))?.data?.baseLine).toBe(64);
    // none at the parent line: the first report of the flag is judged (and found at the wrong line)
    expect(dropHit(findings, drop({ path: "compose.yaml", flag: "--tp", parentLine: 99 }))?.data?.baseLine).toBe(45);
    expect(dropHit(findings, drop({ path: "other.yaml", flag: "--tp", parentLine: 64 }))).toBeUndefined();
  });
});

describe("field runner", () => {
  it("skips cleanly, naming the missing cache, when there is none", async () => {
    const r = await runField("launch-4", "/nonexistent/field/launch-4");
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/no cache at \/nonexistent\/field\/launch-4.*nothing scored/);
  });
});
