// explain starts on its own code: the bundle, built as `npm run build` builds it, loads for `explain` only the bin and
// the chunks explain imports (a quarter of a megabyte), not the deploy stage, SSH, YAML or the config schema
// (V8 compiling the whole 2.5 MB bundle cost more CPU than decoding a 5 MB dump: docs/performance.md).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "dg-split-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--outdir", out], { cwd: ROOT, stdio: "pipe" });
}, 120_000);

/** The files a module loads: its static imports, and its dynamic ones when `dynamic` holds for the path. */
function closure(file: string, dynamic: (path: string) => boolean, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/\bfrom\s*"(\.[^"]+)"|\bimport\s*"(\.[^"]+)"|\bimport\("(\.[^"]+)"\)/g)) {
    const path = m[1] ?? m[2] ?? m[3]!;
    if (m[3] !== undefined && !dynamic(path)) continue;
    closure(join(dirname(file), path), dynamic, seen);
  }
  return seen;
}

describe("the bundle's split", () => {
  it("explain loads the bin and explain's chunks only: under 0.4 MB, none of SSH, YAML or the schema", () => {
    const files = closure(join(out, "cli.js"), (p) => /\/explain-[^/]+\.js$/.test(p));
    const bytes = [...files].reduce((n, f) => n + statSync(f).size, 0);
    expect(bytes).toBeLessThan(400_000);
    const text = [...files].map((f) => readFileSync(f, "utf8")).join("\n");
    for (const absent of ["node_modules/ssh2/", "node_modules/yaml/", "node_modules/zod/"])
      expect(text).not.toContain(absent);
    // the whole of it is larger by far: the other verbs' code is there, in chunks explain does not load
    const all = closure(join(out, "cli.js"), () => true);
    expect([...all].reduce((n, f) => n + statSync(f).size, 0)).toBeGreaterThan(2_000_000);
  });

  it("the split bundle runs explain and the other verbs", () => {
    const fixture = join(ROOT, "test/fixtures/journal/classes/oom-tp2.journal.json");
    const ex = spawnSync(process.execPath, [join(out, "cli.js"), "explain", fixture, "--json"], { encoding: "utf8" });
    expect(ex.status).toBe(1);
    expect(JSON.parse(ex.stdout).class).toBe("oom");
    const bad = spawnSync(process.execPath, [join(out, "cli.js"), "bogus"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown command "bogus"');
    const schema = spawnSync(process.execPath, [join(out, "cli.js"), "schema"], { encoding: "utf8" });
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout).$schema).toBeTruthy();
  });
});
