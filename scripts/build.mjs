// Bundles the entry points into dist/ (committed; CI rebuilds and diffs it), with the licence
// notices of every package bundled into it and the config's JSON Schema beside them.
// `--outdir DIR` builds elsewhere (the journal bench times the bundle of the tree as it is, dist/ untouched).
// Code split: a verb's code loads when the verb runs, so `explain` compiles ~0.2 MB of JavaScript instead of
// the whole 2.5 MB (docs/performance.md); the shared chunks sit in dist/chunks/.
// ssh2's optional native addons stay external: it falls back to pure-JS crypto,
// so the bundle runs with no node_modules on Node 20 and 24.
import { build } from "esbuild";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { thirdPartyNotices } from "./notices.mjs";

const banner = [
  "import { createRequire as __dgCreateRequire } from 'node:module';",
  "import { fileURLToPath as __dgFileURLToPath } from 'node:url';",
  "import { dirname as __dgDirname } from 'node:path';",
  "const require = __dgCreateRequire(import.meta.url);",
  "const __filename = __dgFileURLToPath(import.meta.url);",
  "const __dirname = __dgDirname(__filename);",
].join("\n");

const at = process.argv.indexOf("--outdir");
const outdir = at > 0 ? process.argv[at + 1] : "dist";
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: "src/cli/bin.ts", index: "src/action/index.ts" },
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["*.node", "cpu-features"],
  banner: { js: "#!/usr/bin/env node\n" + banner },
  legalComments: "none",
  logLevel: "warning",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: false,
  metafile: true,
});
// The bin is executable in the repository too, so `./dist/cli.js` and npx agree with the committed mode.
chmodSync(join(outdir, "cli.js"), 0o755);
// legalComments are dropped from the bundle; the licences travel in one generated file instead.
writeFileSync(join(outdir, "THIRD-PARTY-NOTICES.txt"), thirdPartyNotices(Object.keys(result.metafile.inputs)));
// Editors fetch the schema by path from the package (`# yaml-language-server: $schema=...`).
const { execFileSync } = await import("node:child_process");
writeFileSync(
  join(outdir, "deploy-gate.schema.json"),
  execFileSync(process.execPath, [join(outdir, "cli.js"), "schema"], { encoding: "utf8" }),
);
