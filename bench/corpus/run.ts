// `npm run corpus [-- --dir DIR]`: preflight measured on a real-world corpus (default test/fixtures/corpora/launch-1;
// test/fixtures/corpora/launch-2 is the set written blind), against issue 10's targets. `-- --field SET` scores the
// real public files of a field set instead (bench/field/run.ts).
import { relative, resolve } from "node:path";
import { CORPUS_DIR, loadCorpus } from "./expected.js";
import { runCorpus } from "./preflight-runner.js";
import { fieldArgs, runField } from "../field/run.js";
import { renderFigures, scoreCorpus, targetsMet, type Figures } from "./score.js";

export async function runCorpusBench(dir = CORPUS_DIR): Promise<{ figures: Figures; text: string; ok: boolean }> {
  const corpus = loadCorpus(dir);
  const { files, drops } = await runCorpus(corpus, dir);
  const figures = scoreCorpus(files, drops);
  const ok = targetsMet(figures);
  return {
    figures,
    ok,
    text: `${renderFigures(figures, files.length)}\n${ok ? "corpus: target met" : "corpus: TARGET MISSED"}`,
  };
}

/** The corpus directory named by `--dir DIR` (or `--dir=DIR`), else the default corpus. */
export function corpusDirFrom(argv: readonly string[]): string {
  const i = argv.findIndex((a) => a === "--dir" || a.startsWith("--dir="));
  if (i < 0) return CORPUS_DIR;
  const value = argv[i]!.startsWith("--dir=") ? argv[i]!.slice("--dir=".length) : argv[i + 1];
  if (!value)
    throw new Error("--dir needs a directory holding expected.json, e.g. --dir test/fixtures/corpora/launch-2");
  return resolve(value);
}

if (import.meta.url === `file://${process.argv[1]}` && fieldArgs(process.argv.slice(2))) {
  const a = fieldArgs(process.argv.slice(2))!;
  console.log(`## preflight on the field set ${a.set} (${a.cache})`);
  const r = await runField(a.set, a.cache, a.drops);
  console.log(r.text);
  process.exitCode = r.ok ? 0 : 1;
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = corpusDirFrom(process.argv.slice(2));
  const r = await runCorpusBench(dir);
  console.log(`## preflight on the real-world corpus (${relative(process.cwd(), dir) || "."})`);
  console.log(r.text);
  process.exitCode = r.ok ? 0 : 1;
}
