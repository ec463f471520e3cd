// A serve script saved with CRLF line endings, run for real (this machine's bash and GNU env): what they print is
// what explain reads. coreutils quotes the interpreter it could not run (`‘bash\r’`) and adds a hint line; bash 5.2
// says `cannot execute: required file not found` (older bash: `/bin/bash^M: bad interpreter`).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";

const dir = mkdtempSync(join(tmpdir(), "dg-crlf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(name: string, shebang: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${shebang}\r\necho serving\r\n`);
  chmodSync(path, 0o755);
  const r = spawnSync("bash", ["-c", `./${name}`], { cwd: dir, encoding: "utf8", timeout: 10_000 });
  return r.stderr;
}

describe("a CRLF serve script, run for real", () => {
  it.each([
    ["env.sh", "#!/usr/bin/env bash"],
    ["bash.sh", "#!/bin/bash"],
  ])("%s: explain names the line endings", (name, shebang) => {
    const stderr = runScript(name, shebang);
    expect(stderr).not.toBe("");
    const r = explain(stderr);
    expect(r.class, stderr).toBe("script-error");
    expect(r.fix).toMatch(/line endings|#! interpreter/);
  });
});
