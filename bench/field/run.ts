// `npm run corpus -- --field launch-4 [--cache DIR] [--no-drops]`: preflight scored on real public files (the
// gitignored cache /work/main/.cache/field/<set>/, or --cache) against the blind key in
// test/fixtures/corpora/field-<set>/expected.json. Without the cache (CI) it says so and scores nothing.
import { join } from "node:path";
import { cacheHas, runDrop, runEntries } from "./runner.js";
import { keyPath, loadFetched, loadKey, loadRepos } from "./key.js";
import { fieldTargetsMet, renderField, scoreField } from "./score.js";

export const DEFAULT_CACHE_ROOT = "/work/main/.cache/field";

export async function runField(set: string, cacheDir: string, drops = true): Promise<{ text: string; ok: boolean }> {
  if (!cacheHas(cacheDir))
    return {
      ok: true,
      text: `field set ${set}: no cache at ${cacheDir} (FETCHED.tsv missing): nothing scored. The real files are kept out of the repository; fill the cache with the search tool's fetch, or pass --cache DIR.`,
    };
  const key = loadKey(keyPath(set));
  const runs = await runEntries(cacheDir, loadFetched(cacheDir), key);
  const repos = loadRepos(cacheDir);
  const dropRuns = [];
  if (drops) for (const d of key.drops) dropRuns.push(await runDrop(d, repos.get(d.repo)));
  const figures = scoreField(runs, dropRuns);
  const ok = fieldTargetsMet(figures);
  return { ok, text: `${renderField(figures)}\n${ok ? "field: targets met" : "field: TARGETS MISSED"}` };
}

export function fieldArgs(argv: readonly string[]): { set: string; cache: string; drops: boolean } | null {
  const value = (name: string) => {
    const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
    if (i < 0) return null;
    return argv[i]!.includes("=") ? argv[i]!.slice(name.length + 1) : (argv[i + 1] ?? null);
  };
  const set = value("--field");
  if (!set) return null;
  return { set, cache: value("--cache") ?? join(DEFAULT_CACHE_ROOT, set), drops: !argv.includes("--no-drops") };
}
