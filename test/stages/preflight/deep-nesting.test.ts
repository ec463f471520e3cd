// A file nested thousands of levels deep (issue 27, low: 3,000 nested "$( ran the recursive lexer out of
// stack, and preflight stopped with an internal error, reporting nothing): that one file is reported, the
// others are checked as usual.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { lex, MAX_NESTING, NestingTooDeep } from "../../../src/domain/launch/lexer.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo } from "../../helpers/repo.js";

const nested = (n: number) => `echo ${'"$('.repeat(n)}x${')"'.repeat(n)}\n`;

describe("nesting past the lexer's bound", () => {
  it("is refused by name at the bound, and read in full below it", () => {
    expect(() => lex(nested(MAX_NESTING + 1))).toThrow(NestingTooDeep);
    expect(() => lex(nested(20_000))).toThrow(/nested more than 256 deep \(from line 1\)/);
    expect(lex(nested(MAX_NESTING - 1)).length).toBeGreaterThan(0);
  });

  const repo = tempRepo("dg-deep-");
  afterAll(() => repo.cleanup());

  it("preflight reports the one file and checks the others", async () => {
    repo.commit("scripts", {
      "serve.sh": "#!/bin/bash\nexec vllm serve /m --port 8000 --max-model-len 4096\n",
      "deep.sh": `#!/bin/bash\n${nested(3000)}vllm serve /m2 --port 1\n`,
    });
    let out = "";
    let err = "";
    const code = await main(["preflight", "--json"], {
      out: (s) => (out += s),
      err: (s) => (err += s),
      isTTY: false,
      env: {},
      cwd: repo.dir,
    });
    expect(err).not.toMatch(/internal error/);
    expect(code).toBe(1);
    const report = JSON.parse(out) as Report;
    const deep = report.findings.find((f) => f.file === "deep.sh" && f.check === "preflight.traps");
    expect(deep?.status).toBe("fail");
    expect(deep?.summary).toMatch(/nested more than 256 deep .*no check of this file ran/);
    expect(report.findings.find((f) => f.file === "serve.sh" && f.check === "preflight.traps")?.status).toBe("pass");
  });
});
