// The THIRD blind set (test/fixtures/corpora/launch-3): 37 fixtures a helper wrote from public launch patterns not
// in the first two sets (screen, tmux, apptainer, `set -- "$@"`, flags echoed by a function, a unit's
// Environment= secret...), without reading src/, key committed before preflight first ran on it. First blind
// run: precision 21/21, recall 21/23, discovery 30/33, flag parse 27/32, drops 5/6; every gap was then fixed,
// so this holds all of it. Reproduce: npm run corpus -- --dir test/fixtures/corpora/launch-3
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CORPUS_DIR, loadCorpus } from "../../bench/corpus/expected.js";
import { runCorpus } from "../../bench/corpus/preflight-runner.js";
import { scoreCorpus, type Figures } from "../../bench/corpus/score.js";

const THIRD = join(CORPUS_DIR, "..", "launch-3");
let figures: Figures;

beforeAll(async () => {
  const { files, drops } = await runCorpus(loadCorpus(THIRD), THIRD);
  figures = scoreCorpus(files, drops);
}, 300_000);

describe("preflight on the third blind corpus", () => {
  it("raises every expected finding and nothing else", () => {
    expect(
      figures.perFile
        .filter((p) => p.falsePositives.length || p.misses.length)
        .map((p) => ({ file: p.file, fp: p.falsePositives, misses: p.misses })),
    ).toEqual([]);
    expect(figures.recall).toMatchObject({ hit: 23, of: 23 });
  });

  it("discovers every serving file (screen, tmux, apptainer included) and no client, benchmark or nginx", () => {
    expect(figures.undiscovered).toEqual([]);
    expect(figures.discovery).toMatchObject({ hit: 33, of: 33 });
    expect(figures.wronglyDiscovered).toEqual([]);
  });

  it("finds every expected engine flag and traces every drop, the rename staying silent", () => {
    expect(figures.flagParseMisses).toEqual([]);
    expect(figures.flagParseUnreachable).toEqual([]);
    expect(figures.dropFailures.map((d) => `${d.drop.file} ${d.drop.contract} (${d.drop.form})`)).toEqual([]);
    expect(figures.drops.of).toBe(6);
  });
});
