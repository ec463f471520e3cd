// Runs real serve scripts under bash with a stand-in `podman` on PATH that records its argv, and
// checks the parser found the same `podman run` words in the same order.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { programWords } from "../../../src/domain/launch/words.js";

const FIX = join(import.meta.dirname, "../../fixtures");
const bin = mkdtempSync(join(tmpdir(), "dg-oracle-"));
const out = join(bin, "argv");
// podman records `run` invocations (NUL-separated words, \x01 after each); mkdir and curl do
// nothing, so a script touches no host path and no network here.
writeFileSync(
  join(bin, "podman"),
  `#!/bin/bash\nif [ "$1" = run ]; then printf '%s\\0' "$@" >> "$ARGV_OUT"; printf '\\001' >> "$ARGV_OUT"; fi\nexit 0\n`,
);
writeFileSync(join(bin, "mkdir"), "#!/bin/sh\nexit 0\n");
writeFileSync(join(bin, "curl"), "#!/bin/sh\nexit 0\n");
for (const f of ["podman", "mkdir", "curl"]) chmodSync(join(bin, f), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function bashRuns(path: string): string[][] {
  writeFileSync(out, "");
  // SPEC and HF_TOKEN_FILE switch the optional parts on, so bash prints every word the parser sees.
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: bin, ARGV_OUT: out, SPEC: "2", HF_TOKEN_FILE: "/run/hf" };
  execFileSync("bash", [path], { env, timeout: 10_000, stdio: "pipe" });
  return readFileSync(out, "utf8")
    .split("\x01")
    .slice(0, -1)
    .map((s) => s.split("\0").slice(0, -1));
}

const scripts = [
  join(FIX, "launch/scripts/serve-archon.sh"),
  ...readdirSync(join(FIX, "launch", "traps"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".sh"))
    .map((f) => join(FIX, "launch", "traps", f))
    .filter((f) => /podman run/.test(readFileSync(f, "utf8")) && !/until podman logs/.test(readFileSync(f, "utf8"))),
];

describe("parsed podman run argv agrees with bash", () => {
  for (const path of scripts) {
    it(path.slice(FIX.length + 1), () => {
      const fromBash = bashRuns(path);
      const parsed = parseServeScript(readFileSync(path, "utf8")).podmanRuns;
      expect(parsed.length).toBe(fromBash.length);
      for (const [i, run] of parsed.entries()) {
        const words = programWords(run.command.words).slice(1);
        const actual = fromBash[i]!;
        expect(words.length).toBe(actual.length);
        for (const [j, w] of words.entries()) {
          // a literal must match exactly; an expansion only where the script itself fixes its value
          if (!w.dynamic) expect(w.text).toBe(actual[j]);
          else if (!w.optional && w.resolved !== undefined) expect(w.resolved).toBe(actual[j]);
        }
      }
    });
  }
});
