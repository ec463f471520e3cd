// Bad input through main(): each case exits 2 with one line that says what to do, never a stack trace.
// And explain's output (terminal and JSON) passes the same redactor as every report.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { traceOn } from "../../src/ports/trace.js";
import { tempRepo } from "../helpers/repo.js";
import { leaks, plantedLines } from "../domain/report/planted-secrets.js";

const repo = tempRepo("dg-hard-");
afterAll(() => repo.cleanup());
repo.commit("init", {
  "scripts/serve.sh": "#!/bin/bash\nexec podman run --rm --name ctr docker.io/vllm/vllm-openai:v0.11.0 --model /m\n",
  "deploy-gate.yml": "version: 1\nendpoints:\n  a:\n    script: scripts/serve.sh\n",
});

async function run(argv: string[], cwd = repo.dir) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: true, env: {}, cwd });
  return { code, out, err };
}

/** One line, no stack frames. */
const oneLine = (err: string) => {
  expect(
    err
      .trim()
      .split("\n")
      .filter((l) => l.trim()),
  ).toHaveLength(1);
  expect(err).not.toMatch(/^\s+at |internal error/m);
};

describe("-v", () => {
  it("prints the trace of every command run (git here) on stderr", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((s) => (lines.push(String(s)), true));
    try {
      await run(["preflight", "-v", "--json"]);
    } finally {
      spy.mockRestore();
      traceOn(false);
    }
    expect(lines.join("")).toMatch(/\[trace\] \d+ms git /);
  });
});

describe("bad input exits 2 with one line saying what to do", () => {
  it("--base naming a ref that does not exist: a usage error, not one FAIL per script", async () => {
    const r = await run(["preflight", "--base", "v9.9-typo"]);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(/--base v9\.9-typo does not exist in this repository/);
    expect(r.out).toBe("");
  });

  it("--report into a missing directory", async () => {
    const r = await run(["preflight", "--report", join(repo.dir, "no/such/dir/r.json")]);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(/no\/such\/dir.*does not exist.*mkdir/);
  });

  it("--report or --summary onto the config, a script or into .git: refused, the file untouched", async () => {
    for (const [flag, target] of [
      ["--report", "deploy-gate.yml"],
      ["--summary", "scripts/serve.sh"],
      ["--report", ".git/HEAD"],
    ] as const) {
      const before = readFileSync(join(repo.dir, target), "utf8");
      const r = await run(["preflight", flag, target]);
      expect(r.code, target).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(
        target.startsWith(".git") ? /inside a \.git directory/ : /exists and is not a deploy-gate .*pick a new path/,
      );
      expect(readFileSync(join(repo.dir, target), "utf8")).toBe(before);
    }
  });

  it("--report and --summary replace an earlier report and summary of ours", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-rep-"));
    try {
      for (let i = 0; i < 2; i++) {
        const r = await run(["preflight", "--report", join(dir, "r.json"), "--summary", join(dir, "s.md")]);
        expect(r.code, r.err).toBeLessThan(2);
      }
      expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).tool.name).toBe("deploy-gate");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--report onto a device or under a file: refused before the run", async () => {
    for (const [target, why] of [
      ["/dev/full", /exists and is not a deploy-gate JSON report/],
      ["scripts/serve.sh/r.json", /scripts\/serve\.sh is not a directory/],
    ] as const) {
      const r = await run(["preflight", "--report", target]);
      expect(r.code, target).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(why);
    }
  });

  it("a script: that names a directory says so, not 'does not exist'", async () => {
    const dir = mkdtempSync(join(repo.dir, "cfg-"));
    try {
      writeFileSync(join(dir, "d.yml"), "version: 1\nendpoints:\n  a:\n    script: ../scripts\n");
      const r = await run(["preflight", "--config", join(dir, "d.yml")]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/scripts is a directory, not a file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--summary into a missing directory", async () => {
    const r = await run(["preflight", "--summary", join(repo.dir, "nope/s.md")]);
    expect(r.code).toBe(2);
    oneLine(r.err);
  });

  it("explain on a directory", async () => {
    const r = await run(["explain", "scripts"]);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(/scripts is a directory: pass a file/);
  });

  it("--config naming a directory", async () => {
    const r = await run(["preflight", "--config", "scripts"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is a directory/);
    expect(r.err).not.toMatch(/^\s+at /m);
  });

  it("--ref with a config outside the repository", async () => {
    const outside = tempRepo("dg-outside-");
    try {
      writeFileSync(
        join(outside.dir, "deploy-gate.yml"),
        "version: 1\nendpoints:\n  a:\n    script: scripts/serve.sh\n",
      );
      const r = await run(["preflight", "--ref", "HEAD", "--config", join(outside.dir, "deploy-gate.yml")]);
      expect(r.code).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(/outside the repository/);
    } finally {
      outside.cleanup();
    }
  });

  it("an alias bomb and an 8 MB config", async () => {
    mkdirSync(join(repo.dir, "bad"), { recursive: true });
    const levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(",")}]`,
      );
    writeFileSync(
      join(repo.dir, "bad/bomb.yml"),
      `version: 1\n${levels.join("\n")}\nendpoints:\n  a:\n    script: ../scripts/serve.sh\n`,
    );
    writeFileSync(
      join(repo.dir, "bad/big.yml"),
      `version: 1\nendpoints:\n  a:\n    script: s.sh\n    contracts:\n      flags:\n${Array.from({ length: 400_000 }, (_, i) => `        - --f${i}`).join("\n")}\n`,
    );
    for (const f of ["bad/bomb.yml", "bad/big.yml"]) {
      const r = await run(["preflight", "--config", f]);
      expect(r.code).toBe(2);
      expect(r.err).not.toMatch(/^\s+at |internal error/m);
    }
  });
});

describe("explain output is redacted and control-free", () => {
  it("no planted secret and no escape sequence from the log reaches the terminal or JSON", async () => {
    // The decisive line of a traceback carries host text verbatim: plant secrets and escapes there.
    const p = plantedLines();
    const log = [
      ...p,
      "Traceback (most recent call last):",
      '  File "/x.py", line 1, in <module>',
      `RuntimeError: cannot start \x1b]52;c;ZXZpbA==\x07\x1b[2J ${p[2]} ${p[3]} ${p[4]} ${p[1]} ${p[0]}\n::error file=x::pwned`,
    ].join("\n");
    writeFileSync(join(repo.dir, "boot.log"), log);
    for (const extra of [[], ["--json"], ["--no-color"]]) {
      const r = await run(["explain", "boot.log", ...extra]);
      expect(leaks(r.out + r.err)).toEqual([]);
      expect(r.out).not.toMatch(/\x1b\]|\x1b\[2J/);
      for (const line of r.out.split("\n")) expect(line.trimStart()).not.toMatch(/^::/);
    }
  });
});
