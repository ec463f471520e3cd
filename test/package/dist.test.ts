// The committed bundle runs on its own: copied to a directory with no node_modules, on this Node.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/lib/version.js";
import { tempRepo } from "../helpers/repo.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DIST = join(ROOT, "dist", "cli.js");
const lone = mkdtempSync(join(tmpdir(), "dg-dist-"));
afterAll(() => rmSync(lone, { recursive: true, force: true }));

describe("dist/cli.js", () => {
  it("exists (run `npm run build` first)", () => expect(existsSync(DIST)).toBe(true));

  it("a reader that has gone away (explain big.json | head) ends it quietly, not with an EPIPE stack", () => {
    // the reader closes its end at once (node needs far longer to start), so every write of the CLI meets EPIPE
    const r = spawnSync(
      "bash",
      [
        "-c",
        `${JSON.stringify(process.execPath)} ${JSON.stringify(DIST)} explain --json ${JSON.stringify(join(ROOT, "test/fixtures/journal/classes/oom-tp2.journal.json"))} | (exec 0<&-; exit 0); echo "rc=\${PIPESTATUS[0]}"`,
      ],
      { encoding: "utf8" },
    );
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
    expect(r.stdout).toMatch(/rc=1\b/); // explain's own exit code (an OOM), not a crash
  });

  it("runs from a directory with no node_modules and checks a real repo", () => {
    copyFileSync(DIST, join(lone, "cli.js"));
    // the verbs' code split out of the bin (scripts/build.mjs): shipped beside it in the package
    const chunks = join(ROOT, "dist", "chunks");
    if (existsSync(chunks)) cpSync(chunks, join(lone, "chunks"), { recursive: true });
    const v = spawnSync(process.execPath, [join(lone, "cli.js"), "--version"], { cwd: lone, encoding: "utf8" });
    expect(v.stdout.trim()).toBe(`deploy-gate ${VERSION}`);
    const r = tempRepo();
    try {
      r.commit("s", { "serve.sh": readFileSync(join(ROOT, "examples/serve-repo/scripts/serve-archon.sh"), "utf8") });
      const p = spawnSync(process.execPath, [join(lone, "cli.js"), "preflight", "--json"], {
        cwd: r.dir,
        encoding: "utf8",
      });
      expect(p.status).toBe(0);
      expect(JSON.parse(p.stdout).findings.some((f: { check: string }) => f.check === "preflight.bash-syntax")).toBe(
        true,
      );
      const bad = spawnSync(process.execPath, [join(lone, "cli.js"), "bogus"], { cwd: r.dir, encoding: "utf8" });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('unknown command "bogus"');
    } finally {
      r.cleanup();
    }
  });

  it("keeps src/version.ts in step with package.json", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version).toBe(VERSION);
  });

  it("prints the config JSON Schema", () => {
    const out = execFileSync(process.execPath, [DIST, "schema"], { encoding: "utf8" });
    expect(JSON.parse(out).properties.endpoints).toBeDefined();
  });
});
