// Bundles the entry points into dist/ (committed; CI rebuilds and diffs it).
// ssh2's optional native addons stay external: it falls back to pure-JS crypto,
// so the bundle runs with no node_modules on Node 20 and 24.
import { build } from "esbuild";
import { rmSync } from "node:fs";

const banner = [
  "import { createRequire as __dgCreateRequire } from 'node:module';",
  "import { fileURLToPath as __dgFileURLToPath } from 'node:url';",
  "import { dirname as __dgDirname } from 'node:path';",
  "const require = __dgCreateRequire(import.meta.url);",
  "const __filename = __dgFileURLToPath(import.meta.url);",
  "const __dirname = __dgDirname(__filename);",
].join("\n");

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts", index: "src/action.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["*.node", "cpu-features"],
  banner: { js: "#!/usr/bin/env node\n" + banner },
  legalComments: "none",
  logLevel: "warning",
  splitting: false,
  sourcemap: false,
});
// The bin is executable in the repository too, so `./dist/cli.js` and npx agree with the committed mode.
const { chmodSync } = await import("node:fs");
chmodSync("dist/cli.js", 0o755);
