// The package as users get it: `npm pack`, then installed and run from a clean directory with no
// registry reachable (an unroutable registry and an empty cache: any download would fail the install).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/lib/version.js";
import { tempRepo } from "../helpers/repo.js";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "dg-pack-"));
const clean = join(work, "clean");
const offline = {
  ...process.env,
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_cache: join(work, "cache"),
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};
let tarball = "";
let files: string[] = [];

beforeAll(() => {
  mkdirSync(clean);
  const out = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, encoding: "utf8", env: offline }),
  );
  tarball = join(work, out[0].filename);
  files = out[0].files.map((f: { path: string }) => f.path);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm pack", () => {
  it("ships the bundle, the action, the licence, the notices and the schema, and no sources", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "dist/cli.js",
        "dist/index.js",
        "action.yml",
        "LICENSE",
        "README.md",
        "dist/THIRD-PARTY-NOTICES.txt",
        "dist/deploy-gate.schema.json",
        "package.json",
      ]),
    );
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
  });

  it("declares no runtime dependency: the bundle is the product", () => {
    const pj = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pj.dependencies ?? {}).toEqual({});
    for (const k of ["repository", "homepage", "bugs"]) expect(pj[k]).toBeTruthy();
  });

  it("installs offline into a clean directory and runs there, on a real repository", () => {
    const inst = spawnSync("npm", ["install", "--no-package-lock", tarball], {
      cwd: clean,
      encoding: "utf8",
      env: offline,
    });
    expect(inst.stderr).not.toMatch(/ERR!/);
    expect(inst.status).toBe(0);
    const bin = join(clean, "node_modules", ".bin", "deploy-gate");
    expect(spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim()).toBe(`deploy-gate ${VERSION}`);
    // The packed schema is what `deploy-gate schema` prints.
    const packed = JSON.parse(
      readFileSync(join(clean, "node_modules", "deploy-gate", "dist", "deploy-gate.schema.json"), "utf8"),
    );
    expect(JSON.parse(spawnSync(bin, ["schema"], { encoding: "utf8" }).stdout)).toEqual(packed);
    const r = tempRepo();
    try {
      r.commit("s", { "serve.sh": readFileSync(join(ROOT, "examples/serve-repo/scripts/serve-archon.sh"), "utf8") });
      const p = spawnSync(bin, ["preflight", "--json"], { cwd: r.dir, encoding: "utf8" });
      expect(p.status).toBe(0);
      expect(JSON.parse(p.stdout).findings.some((f: { check: string }) => f.check === "preflight.bash-syntax")).toBe(
        true,
      );
    } finally {
      r.cleanup();
    }
  }, 120_000);

  // As the README says to run it until the package is published: `npx ./deploy-gate-VERSION.tgz`.
  it("runs through npx from the tarball with no registry", () => {
    const r = spawnSync("npx", ["--yes", `./${tarball.split("/").pop()}`, "--version"], {
      cwd: work,
      encoding: "utf8",
      env: { ...offline, npm_config_cache: join(work, "cache-npx") },
    });
    expect(r.stdout.trim()).toBe(`deploy-gate ${VERSION}`);
  }, 120_000);

  // The README's form, with an absolute path (a bare absolute path would be taken for a command).
  it("runs through npx --package=/abs/path.tgz from another directory", () => {
    const r = spawnSync("npx", ["--yes", `--package=${tarball}`, "deploy-gate", "--version"], {
      cwd: clean,
      encoding: "utf8",
      env: { ...offline, npm_config_cache: join(work, "cache-npx2") },
    });
    expect(r.stdout.trim()).toBe(`deploy-gate ${VERSION}`);
  }, 120_000);
});
