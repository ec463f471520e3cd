// Issue 10's targets on the real-world corpus (test/fixtures/corpora/launch-1), through the real preflight in real
// temporary git repositories. Fails until the one engine-command model lands (see `npm run corpus`).
import { beforeAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../bench/corpus/expected.js";
import { runCorpus } from "../../bench/corpus/preflight-runner.js";
import { ratio, scoreCorpus, type Figures } from "../../bench/corpus/score.js";

let figures: Figures;

beforeAll(async () => {
  const { files, drops } = await runCorpus(loadCorpus());
  figures = scoreCorpus(files, drops);
}, 300_000);

describe("preflight on the real-world corpus", () => {
  it("raises every finding a careful operator raises", () => {
    expect(figures.perFile.filter((p) => p.misses.length).map((p) => ({ file: p.file, misses: p.misses }))).toEqual([]);
  });

  it("keeps precision at or above 90%", () => {
    const noise = figures.perFile
      .filter((p) => p.falsePositives.length)
      .map((p) => `${p.file}: ${p.falsePositives.map((f) => `${f.rule ?? f.check}@${f.line}`).join(", ")}`);
    expect(ratio(figures.precision), noise.join("\n")).toBeGreaterThanOrEqual(0.9);
  });

  it("discovers every file that starts an inference server, and nothing else", () => {
    expect(figures.undiscovered).toEqual([]);
    expect(figures.wronglyDiscovered).toEqual([]);
  });

  it("traces every dropped contract to its commit, and stays silent on a rename", () => {
    expect(figures.dropFailures.map((d) => `${d.drop.file} ${d.drop.contract} (${d.drop.form})`)).toEqual([]);
  });
});
