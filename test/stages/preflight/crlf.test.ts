// A serve script saved with CRLF line endings: `bash -n` passes, a run does not (`set: pipefail\r: invalid
// option name`). Preflight fails it by name, still reads its argv (no flag "dropped" by the \r), and a repo
// with no config still finds it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const SCRIPT = readFileSync(join(import.meta.dirname, "../../../examples/serve-repo/scripts/serve-archon.sh"), "utf8");
let repo: TempRepo | null = null;
afterEach(() => {
  repo?.cleanup();
  repo = null;
});

async function preflight(cwd: string) {
  let out = "";
  const code = await main(["preflight", "--json"], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd,
  });
  return {
    code,
    findings: (JSON.parse(out) as { findings: { check: string; status: string; summary: string; line?: number }[] })
      .findings,
  };
}

describe("a CRLF serve script", () => {
  it("fails preflight.bash-syntax naming CRLF, and bash itself confirms it would not run", async () => {
    repo = tempRepo();
    const crlf = SCRIPT.replace(/\n/g, "\r\n");
    repo.commit("lf", { "scripts/serve-archon.sh": SCRIPT });
    repo.commit("saved on Windows", { "scripts/serve-archon.sh": crlf });
    const run = (() => {
      try {
        execFileSync("/bin/bash", [join(repo.dir, "scripts/serve-archon.sh")], {
          stdio: "pipe",
          env: { PATH: "/nonexistent" },
        });
        return "";
      } catch (e) {
        return String((e as { stderr: Buffer }).stderr);
      }
    })();
    expect(run).toMatch(/pipefail\r?: invalid option name|\$'\\r'/);
    const r = await preflight(repo.dir);
    expect(r.code).toBe(1);
    const syntax = r.findings.find((f) => f.check === "preflight.bash-syntax")!;
    expect(syntax.status).toBe("fail");
    expect(syntax.summary).toMatch(/\d+ line\(s\) end in CRLF \(first at line 1\)/);
    // the argv is still read: no flag counts as dropped because of a trailing \r
    expect(r.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass")).toEqual([]);
  });
});

describe("a CRLF script that bash -n refuses (`for i in 1 2; do` reads as `do\\r`, set AF4)", () => {
  it("fails at bash's line and names the CRLF ends as the cause, with the conversion as the fix", async () => {
    repo = tempRepo();
    const text = "#!/bin/bash\nfor i in 1 2; do\n  echo $i\ndone\nexec vllm serve m --port 8000\n";
    repo.commit("saved on Windows", { "serve.sh": text.replace(/\n/g, "\r\n") });
    const r = await preflight(repo.dir);
    const syntax = r.findings.find((f) => f.check === "preflight.bash-syntax")! as { summary: string; line?: number };
    expect(syntax.summary).toMatch(/bash -n fails at line \d+: .*its lines end in CRLF/);
    expect(JSON.stringify(syntax)).toMatch(/convert serve\.sh to LF line endings/);
    // the same text with LF ends: bash -n passes, nothing said of CRLF
    repo.commit("fixed", { "serve.sh": text });
    const fixed = (await preflight(repo.dir)).findings.find((f) => f.check === "preflight.bash-syntax")!;
    expect(fixed.status).toBe("pass");
  });
});
