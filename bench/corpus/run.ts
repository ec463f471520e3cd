// `npm run corpus`: preflight measured on the real-world corpus (test/fixtures/real), issue 10's targets.
import { loadCorpus } from "./expected.js";
import { runCorpus } from "./preflight-runner.js";
import { renderFigures, scoreCorpus, targetsMet, type Figures } from "./score.js";

export async function runCorpusBench(): Promise<{ figures: Figures; text: string; ok: boolean }> {
  const corpus = loadCorpus();
  const { files, drops } = await runCorpus(corpus);
  const figures = scoreCorpus(files, drops);
  const ok = targetsMet(figures);
  return { figures, ok, text: `${renderFigures(figures, files.length)}\n${ok ? "corpus: target met" : "corpus: TARGET MISSED"}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runCorpusBench();
  console.log("## preflight on the real-world corpus (test/fixtures/real)");
  console.log(r.text);
  process.exitCode = r.ok ? 0 : 1;
}
