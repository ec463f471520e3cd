// bash -n and shellcheck once over all of a run's scripts: each file's answer is the one it gets checked alone
// (real bash, real shellcheck), whatever its name, and a batch that cannot answer leaves the file to be checked alone.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashSyntax, syntaxFinding } from "../../../src/stages/preflight/bash-syntax.js";
import { checkScripts, ScriptBatch } from "../../../src/stages/preflight/script-batch.js";
import { shellcheck, shellcheckResult } from "../../../src/stages/preflight/shellcheck.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const hasShellcheck = (() => {
  try {
    execFileSync("shellcheck", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const FILES: Record<string, string> = {
  "ok.sh": "#!/bin/bash\nexec vllm serve /m --port 8000\n",
  "broken.sh": '#!/bin/bash\nif [ -n "$X" ]; then\n  vllm serve /m\n',
  "sc warn $x.sh": "#!/bin/bash\ncd /opt/llm\nvllm serve /m --port $PORT\n",
  "crlf.sh": "#!/bin/bash\r\nvllm serve /m\r\n",
};

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "dg-batch-"));
  dirs.push(dir);
  for (const [f, text] of Object.entries(FILES)) writeFileSync(join(dir, f), text);
  return dir;
}

describe("checkScripts", () => {
  it("gives each file the bash -n finding it gets when checked alone", async () => {
    const dir = repo();
    const files = Object.keys(FILES);
    const batch = await checkScripts(dir, files, false);
    expect([...batch.bash.keys()]).toEqual(files);
    for (const f of files) {
      const alone = await bashSyntax(FILES[f]!, f);
      expect(syntaxFinding(FILES[f]!, f, f, batch.bash.get(f)!, join(dir, f))).toEqual(alone);
    }
    expect(batch.bash.get("broken.sh")!.code).not.toBe(0);
    expect(batch.shellcheck.size).toBe(0);
  });

  it.runIf(hasShellcheck)("gives each file the shellcheck findings it gets when checked alone", async () => {
    const dir = repo();
    const files = Object.keys(FILES);
    const batch = await checkScripts(dir, files, true);
    for (const f of files) {
      const alone = await shellcheck(join(dir, f), f, dir);
      expect(shellcheckResult(batch.shellcheck.get(f)!, f)).toEqual(alone);
    }
    const warned = shellcheckResult(batch.shellcheck.get("sc warn $x.sh")!, "sc warn $x.sh");
    expect(warned.map((w) => w.data?.code)).toEqual(expect.arrayContaining([2164]));
  });

  it("answers for no file whose check it could not finish (a missing file makes shellcheck exit 2)", async () => {
    const dir = repo();
    const batch = await checkScripts(dir, ["ok.sh", "gone.sh"], hasShellcheck);
    expect(batch.shellcheck.size).toBe(0);
    expect(batch.bash.get("gone.sh")!.code).not.toBe(0);
  });
});

describe("ScriptBatch", () => {
  it("checks only the files asked for, once every candidate has asked or is done", async () => {
    const dir = repo();
    const [a, b, c] = [{ n: "a" }, { n: "b" }, { n: "c" }];
    const batch = new ScriptBatch(dir, [a, b, c], false);
    let answered = false;
    const first = batch.want(a, "ok.sh").then((r) => ((answered = true), r));
    const second = batch.want(b, "broken.sh");
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false); // c is still pending
    batch.done(c); // c could not be read: its file is not checked
    const [r1, r2] = await Promise.all([first, second]);
    expect(r1).toBe(r2);
    expect([...r1.bash.keys()].sort()).toEqual(["broken.sh", "ok.sh"]);
  });
});
