// The corpus's scoring (bench/corpus/score.ts) and the consistency of its answer key with the fixtures.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, loadCorpus, type ExpectedFile } from "../../bench/corpus/expected.js";
import {
  dropCorrect,
  flagsFound,
  matchFindings,
  missingFlags,
  normalizeName,
  renderFigures,
  scoreCorpus,
  targetsMet,
  type DropRun,
  type Emitted,
  type FileRun,
} from "../../bench/corpus/score.js";

const trap = (rule: string, line: number): Emitted => ({
  check: "preflight.traps",
  status: "warn",
  rule,
  line,
  summary: rule,
});
const entry = (over: Partial<ExpectedFile> = {}): ExpectedFile => ({
  serves: true,
  kind: "script",
  engine: "vllm",
  runtime: "none",
  image: null,
  flags: [],
  expect: [],
  note: "",
  ...over,
});
const run = (
  file: string,
  expected: ExpectedFile,
  emitted: Emitted[],
  discovered = expected.serves,
  parsedFlags: string[] | null = [],
): FileRun => ({ file, expected, emitted, discovered, parsedFlags });
const drop = (over: Partial<DropRun>, expectDropped = true): DropRun => ({
  drop: { file: "a.sh", contract: "--x 1", remove: "--x 1", expectDropped, form: "t" },
  dropSha: "b".repeat(40),
  tracedTo: null,
  contractBroken: false,
  droppedReported: false,
  ...over,
});

describe("matchFindings", () => {
  it("matches on check, rule and line, one emitted finding per expected one", () => {
    const m = matchFindings(
      [
        { check: "preflight.traps", rule: "ipc-shm", line: 5 },
        { check: "preflight.bash-syntax", line: 3 },
      ],
      [
        trap("ipc-shm", 5),
        trap("ipc-shm", 5),
        trap("memlock", 5),
        trap("ipc-shm", 6),
        { check: "preflight.bash-syntax", status: "fail", line: 3, summary: "x" },
      ],
    );
    expect(m.truePositives.map((f) => `${f.rule ?? f.check}@${f.line}`)).toEqual([
      "ipc-shm@5",
      "preflight.bash-syntax@3",
    ]);
    expect(m.falsePositives.map((f) => `${f.rule}@${f.line}`)).toEqual(["ipc-shm@5", "memlock@5", "ipc-shm@6"]);
    expect(m.misses).toEqual([]);
  });

  it("reports an expected finding nobody raised as a miss", () => {
    const m = matchFindings([{ check: "preflight.traps", rule: "name-reuse", line: 4 }], [trap("name-reuse", 5)]);
    expect(m.misses).toEqual([{ check: "preflight.traps", rule: "name-reuse", line: 4 }]);
    expect(m.falsePositives).toHaveLength(1);
  });
});

describe("flag names", () => {
  it("treats vLLM's underscore and dash spellings as one flag", () => {
    expect(normalizeName("--max_model_len")).toBe("--max-model-len");
    expect(normalizeName("-tp")).toBe("-tp");
    expect(flagsFound(["--max_model_len", "--port"], ["--max-model-len", "--port", "--host"])).toBe(true);
    expect(flagsFound(["--max-model-len"], ["--port"])).toBe(false);
    expect(flagsFound(["--port"], null)).toBe(false);
    expect(missingFlags(["--max_model_len", "--tp-size"], ["--max-model-len"])).toEqual(["--tp-size"]);
  });
});

describe("dropCorrect", () => {
  it("needs the trace to name the dropping commit and dropped-flags to report it", () => {
    const sha = "b".repeat(40);
    expect(dropCorrect(drop({ tracedTo: sha, contractBroken: true, droppedReported: true }))).toBe(true);
    expect(dropCorrect(drop({ tracedTo: sha, contractBroken: true, droppedReported: false }))).toBe(false);
    expect(dropCorrect(drop({ tracedTo: "c".repeat(40), contractBroken: true, droppedReported: true }))).toBe(false);
  });

  it("needs a rename to leave both checks silent", () => {
    expect(dropCorrect(drop({}, false))).toBe(true);
    expect(dropCorrect(drop({ droppedReported: true }, false))).toBe(false);
    expect(dropCorrect(drop({ contractBroken: true }, false))).toBe(false);
  });
});

describe("scoreCorpus", () => {
  const files = [
    run(
      "trap.sh",
      entry({ expect: [{ check: "preflight.traps", rule: "ipc-shm", line: 5 }], flags: ["--port"] }),
      [trap("ipc-shm", 5), trap("memlock", 3)],
      true,
      ["--port"],
    ),
    run("clean.sh", entry({ flags: ["--max-model-len"] }), [], false, ["--port"]),
    run("db.sh", entry({ serves: false, engine: null, runtime: null }), [trap("secret-in-argv", 4)], true),
    run("compose.yaml", entry({ kind: "compose", discover: false }), [], false, null),
    run("q.container", entry({ kind: "quadlet", flags: ["--model"] }), [], true, null),
  ];

  it("computes precision, recall, discovery, flag parse and drops", () => {
    const f = scoreCorpus(files, [
      drop({ tracedTo: "b".repeat(40), contractBroken: true, droppedReported: true }),
      drop({ droppedReported: true }, false),
    ]);
    expect(f.precision).toEqual({ hit: 1, of: 3 });
    expect(f.recall).toEqual({ hit: 1, of: 1 });
    expect(f.discovery).toEqual({ hit: 2, of: 3 });
    expect(f.undiscovered).toEqual(["clean.sh"]);
    expect(f.wronglyDiscovered).toEqual(["db.sh"]);
    expect(f.flagParse).toEqual({ hit: 1, of: 3 });
    expect(f.flagParseUnreachable).toEqual(["q.container"]);
    expect(f.flagParseMisses).toEqual([{ file: "clean.sh", missing: ["--max-model-len"] }]);
    expect(f.drops).toEqual({ hit: 1, of: 2 });
    expect(f.perFile.map((p) => p.file)).toEqual(["trap.sh", "db.sh"]);
    expect(targetsMet(f)).toBe(false);
    const text = renderFigures(f, files.length);
    expect(text).toContain("| precision (traps + bash-syntax, fail/warn) | 33.3% (1/3) | >= 90% |");
    expect(text).toContain("| db.sh | traps:secret-in-argv@4 | - |");
  });

  it("meets the targets when every finding is expected, every server found and every drop traced", () => {
    const good = [
      run("trap.sh", entry({ expect: [{ check: "preflight.traps", rule: "ipc-shm", line: 5 }] }), [trap("ipc-shm", 5)]),
      run("db.sh", entry({ serves: false }), [], false),
    ];
    expect(
      targetsMet(scoreCorpus(good, [drop({ tracedTo: "b".repeat(40), contractBroken: true, droppedReported: true })])),
    ).toBe(true);
  });
});

describe("the corpus answer key (test/fixtures/corpora/launch-1/expected.json)", () => {
  const corpus = loadCorpus();
  const onDisk = readdirSync(CORPUS_DIR)
    .filter((n) => n !== "expected.json" && n !== "SOURCES.md")
    .sort();

  it("has one entry per fixture, and each fixture says what it stands for", () => {
    expect(Object.keys(corpus.files).sort()).toEqual(onDisk);
    for (const name of onDisk)
      expect(readFileSync(join(CORPUS_DIR, name), "utf8").split("\n").slice(0, 2).join("\n"), name).toMatch(
        /# Stands for: /,
      );
  });

  it("points every expected finding at a line that exists", () => {
    for (const [name, e] of Object.entries(corpus.files)) {
      const lines = readFileSync(join(CORPUS_DIR, name), "utf8").split("\n").length;
      for (const x of e.expect) expect(x.line, `${name}: ${x.rule ?? x.check}`).toBeLessThanOrEqual(lines);
    }
  });

  it("removes text that occurs exactly once in each drop case", () => {
    for (const d of corpus.drops)
      expect(readFileSync(join(CORPUS_DIR, d.file), "utf8").split(d.remove).length, d.file).toBe(2);
    expect(corpus.drops.some((d) => !d.expectDropped)).toBe(true);
  });

  it("names every studied repository's fixture in SOURCES.md", () => {
    const sources = readFileSync(join(CORPUS_DIR, "SOURCES.md"), "utf8");
    const cited = new Set([...sources.matchAll(/([\w.-]+\.(?:sh|service|container|yaml))/g)].map((m) => m[1]));
    expect(onDisk.filter((n) => cited.has(n)).length).toBeGreaterThan(30);
  });
});
