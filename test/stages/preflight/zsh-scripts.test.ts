// A zsh serve script (round AC's shape, in our own words): found by discovery, checked with the real `zsh -n`, not
// with bash -n or shellcheck, whose grammar is bash's.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { isZsh, parseZshError } from "../../../src/stages/preflight/zsh-syntax.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(files: Record<string, string>): Promise<Finding[]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("zsh launcher", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return (JSON.parse(out) as Report).findings;
}

// zsh's short `for` form: bash -n refuses it
const LAUNCH = [
  "#!/usr/bin/env zsh",
  "for m (/models/*.gguf(N)) print -r -- $m",
  "llama-server \\",
  "    -hf ggml-org/Qwen2.5-Coder-3B-Q8_0-GGUF \\",
  "    --port 8012 -ngl 99 --ctx-size 0 --cache-reuse 256 &",
  "",
].join("\n");

describe("zsh serve scripts", () => {
  it("knows a zsh script by its shebang, else by its name", () => {
    expect(isZsh("run.sh", "#!/usr/bin/env zsh\n")).toBe(true);
    expect(isZsh("run.sh", "#!/bin/zsh -f\n")).toBe(true);
    expect(isZsh("run.zsh", "#!/bin/bash\n")).toBe(false);
    expect(isZsh("run.zsh", "llama-server -m m\n")).toBe(true);
    expect(parseZshError("/tmp/x/script:3: parse error near `fi'\n", "/tmp/x/script")).toEqual({
      line: 3,
      message: "parse error near `fi'",
    });
  });

  it("is discovered and passes zsh -n where bash -n would fail", async () => {
    const found = await preflight({ "run_coder.zsh": LAUNCH });
    const syntax = found.filter((f) => f.check === "preflight.bash-syntax");
    expect(syntax.map((f) => [f.status, f.file])).toEqual([["pass", "run_coder.zsh"]]);
    expect(syntax[0]!.summary).toMatch(/zsh -n passes/);
    expect(found.some((f) => f.check === "preflight.shellcheck" && f.file === "run_coder.zsh")).toBe(false);
  });

  it("fails at the line zsh -n names", async () => {
    const broken = LAUNCH.replace("print -r -- $m", "print -r -- $m\nif true; then\n  echo x\nfi fi");
    const syntax = (await preflight({ "start.sh": broken })).filter((f) => f.check === "preflight.bash-syntax");
    expect(syntax.map((f) => [f.status, f.file, f.line])).toEqual([["fail", "start.sh", 5]]);
    expect(syntax[0]!.summary).toMatch(/zsh -n fails at line 5: parse error/);
  });
});
