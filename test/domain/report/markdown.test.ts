import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { renderMarkdown, repoUrlOf } from "../../../src/domain/report/markdown.js";
import { fixCommands, prose } from "../../../src/domain/report/markdown-text.js";

const base = (findings: Finding[], verdict: Report["verdict"] = "fail"): Report => ({
  schema: 1,
  tool: { name: "deploy-gate", version: "0.1.0" },
  command: "run",
  endpoint: "archon",
  ref: { name: "main", sha: "0123456789abcdef0123456789abcdef01234567" },
  verdict,
  durationMs: 1234,
  findings,
});

describe("job summary markdown", () => {
  it("puts the verdict first, then each failure once with evidence, fix and decisive line, then warnings, then the passes collapsed", () => {
    const md = renderMarkdown(
      base([
        { check: "preflight.clean-tree", status: "pass", summary: "clean" },
        {
          check: "deploy.diagnosis",
          status: "fail",
          summary: "GPU out of memory | short 1.38 GiB",
          evidence: ["line ```a```", "b"],
          fix: "lower --max-num-seqs",
          data: {
            decisive: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB",
            plan: { kvTokens: 23296, graphGiB: null },
          },
        },
        {
          check: "verify.argv",
          status: "warn",
          summary: "drift",
          data: { drift: ["- --max-num-seqs 4", "+ --max-num-seqs 8"] },
        },
      ]),
    );
    const lines = md.split("\n");
    expect(lines[0]).toBe("## deploy-gate run: ❌ FAIL");
    expect(md).toContain("**Failed:** `deploy.diagnosis`");
    expect(md).toContain("| ✅ | `preflight.clean-tree` | clean |");
    expect(md).toContain("**GPU out of memory \\| short 1.38 GiB**");
    expect(md.split("GPU out of memory")).toHaveLength(2); // once, not in a table as well
    expect(md).toContain(
      "decisive line:\n\n```text\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB\n```",
    );
    expect(md).toContain("````text\nline ```a```\nb\n````");
    expect(md).toContain("**Fix:** lower --max-num-seqs");
    expect(md).toContain("| kvTokens | 23,296 |");
    expect(md).not.toContain("graphGiB");
    expect(md).toContain("+ --max-num-seqs 8");
    const at = (s: string) => md.indexOf(s);
    expect(at("### ❌ Failures (1)")).toBeGreaterThan(0);
    expect(at("### ❌ Failures (1)")).toBeLessThan(at("### ⚠️ Warnings (1)"));
    expect(at("### ⚠️ Warnings (1)")).toBeLessThan(at("<details><summary>1 passed, 0 skipped</summary>"));
    expect(md.trimEnd().endsWith("</details>")).toBe(true);
  });

  it("groups failures by check and file, and gives the fix's commands a shell block", () => {
    const md = renderMarkdown(
      base([
        {
          check: "preflight.traps",
          status: "fail",
          summary: "trap one",
          file: "s.sh",
          line: 3,
          fix: "run `git show abc1234 -- s.sh | git apply -R` or restore `--x`",
        },
        { check: "preflight.traps", status: "fail", summary: "trap two", file: "s.sh", line: 9 },
        { check: "preflight.traps", status: "fail", summary: "trap three", file: "u.service" },
      ]),
    );
    expect(md.match(/#### `preflight\.traps` · `s\.sh`/g)).toHaveLength(1);
    expect(md).toContain("#### `preflight.traps` · `u.service`");
    expect(md.indexOf("trap two")).toBeLessThan(md.indexOf("#### `preflight.traps` · `u.service`"));
    expect(md).toContain("```sh\ngit show abc1234 -- s.sh | git apply -R\n```");
    expect(md).not.toContain("```sh\n--x");
    expect(md).toContain("**trap one** (line 3)");
  });

  it("links commit ids to the repository on the job's server, and never makes user@host a mail link", () => {
    const sha = "d28af600f8".padEnd(40, "a");
    const md = renderMarkdown(
      base([
        {
          check: "preflight.contracts",
          status: "fail",
          summary: 'dropped in d28af600f8 "tune"',
          data: { droppedIn: sha },
        },
        { check: "deploy.connect", status: "pass", summary: "connected to root@10.0.0.5:2222 (host key pinned)" },
      ]),
      undefined,
      { repoUrl: "https://ghe.example.com/org/repo" },
    );
    expect(md).toContain(`dropped in [\`d28af600f8\`](https://ghe.example.com/org/repo/commit/${sha})`);
    expect(md).toContain(
      "([`0123456789`](https://ghe.example.com/org/repo/commit/0123456789abcdef0123456789abcdef01234567)",
    );
    expect(md).toContain("connected to `root@10.0.0.5:2222` (host key pinned)");
    expect(renderMarkdown(base([]))).not.toContain("](");
  });

  it("stays under the size limit by trimming evidence, never the verdict or the failure's headline", () => {
    const huge = Array.from({ length: 5000 }, (_, i) => `evidence line ${i} ${"x".repeat(200)}`);
    const md = renderMarkdown(
      base([{ check: "deploy.diagnosis", status: "fail", summary: "boom", evidence: huge }]),
      64 * 1024,
    );
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(64 * 1024);
    expect(md.startsWith("## deploy-gate run: ❌ FAIL")).toBe(true);
    expect(md).toContain("**boom**");
    expect(md).toMatch(/more lines in the JSON report/);
  });
});

describe("summary text helpers", () => {
  it("finds the repository URL of the job's server", () => {
    expect(repoUrlOf({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "o/r" })).toBe(
      "https://github.com/o/r",
    );
    expect(repoUrlOf({ GITHUB_SERVER_URL: "https://ghe.corp/", GITHUB_REPOSITORY: "o/r" })).toBe(
      "https://ghe.corp/o/r",
    );
    expect(repoUrlOf({ GITHUB_REPOSITORY: "o/r" })).toBeNull();
  });
  it("takes only command-like code spans from a fix, each once", () => {
    expect(
      fixCommands(
        "restore `--x 1`; run `deploy-gate rollback --endpoint a` then `deploy-gate rollback --endpoint a`; `sudo systemctl daemon-reload`",
      ),
    ).toEqual(["deploy-gate rollback --endpoint a", "sudo systemctl daemon-reload"]);
  });
  it("leaves code spans as written", () => {
    expect(prose("`a@b.c` and x@y.z", {})).toBe("`a@b.c` and `x@y.z`");
    // the sentence's colon or period after a user@host stays prose, outside the span
    expect(prose("cannot connect to dank@gpu1.lan: refused", {})).toBe("cannot connect to `dank@gpu1.lan`: refused");
    expect(prose("as root@10.0.0.2:2222: no key.", {})).toBe("as `root@10.0.0.2:2222`: no key.");
    expect(prose("ask ops@gpu1.lan.", {})).toBe("ask `ops@gpu1.lan`.");
  });
});
