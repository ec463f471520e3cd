// One sanitize pass over a report before any renderer: host text is redacted, stripped of control
// characters, and can never start a line of the Action log with a workflow command.
import { describe, expect, it } from "vitest";
import { annotationsOf } from "../../../src/domain/report/annotations.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { renderJson } from "../../../src/domain/report/json.js";
import { renderMarkdown } from "../../../src/domain/report/markdown.js";
import { redact } from "../../../src/domain/redact/redact.js";
import { sanitizeLine, sanitizeReport } from "../../../src/domain/report/sanitize.js";
import { renderTerminal } from "../../../src/domain/report/terminal.js";
import { mask } from "../../../src/domain/redact/mask.js";
import { leaks, PLANTED, plantedLines } from "./planted-secrets.js";
import { valueLooksSecret } from "../../../src/domain/redact/shapes.js";

const report = (findings: Finding[]): Report => ({
  schema: 1,
  tool: { name: "deploy-gate", version: "0.1.0" },
  command: "run",
  endpoint: "archon",
  ref: { name: "main", sha: null },
  verdict: "fail",
  durationMs: 1,
  findings,
});

function everyOutput(r: Report): string {
  const a = annotationsOf(r)
    .map((x) => `${x.title}\n${x.message}`)
    .join("\n");
  return [renderTerminal(r, true), renderTerminal(r, false), renderJson(r), renderMarkdown(r), a].join("\n");
}

describe("redact", () => {
  it("masks a secret in a repr list, and one named inside another name's value (Environment=, --env=)", () => {
    expect(redact("non-default args: {'model': '/m', 'api_key': ['sk-live-abc123'], 'max_model_len': 4096}")).toBe(
      "non-default args: {'model': '/m', 'api_key': [***], 'max_model_len': 4096}",
    );
    expect(redact("{'hf_token': ['a', 'b'], 'x': 1}")).toBe("{'hf_token': [***], 'x': 1}");
    expect(redact("Environment=VLLM_API_KEY=raw123")).toBe("Environment=VLLM_API_KEY=***");
    expect(redact('Environment="VLLM_API_KEY=raw123"')).toBe('Environment="VLLM_API_KEY=***"');
    expect(redact("podman run --env=HF_TOKEN=raw123 img")).toBe("podman run --env=HF_TOKEN=*** img");
  });

  it("keeps what only says where a secret comes from, and the name of a podman secret", () => {
    for (const t of [
      '--api-key "$(cat /etc/vllm/api-key)"',
      '--api-key "$VLLM_API_KEY"',
      "--api-key=${KEY}",
      "api_key=@/run/secrets/k",
      "podman run --secret vllm-key,type=env,target=VLLM_API_KEY img",
    ])
      expect(redact(t)).toBe(t);
    expect(redact("--api-key sekret")).toBe("--api-key ***");
    // the gate's own sentences after a secret-looking name are prose, not a value
    for (const t of [
      "pin the host key: add host.hostKey to deploy-gate.yml",
      "The server runs with --api-key (or VLLM_API_KEY)",
      "remove --api-key from the serve script",
      "auth-mismatch: the engine refused the key",
    ])
      expect(redact(t)).toBe(t);
    // a reference with a literal default carries the literal: masked
    for (const t of ['--api-key "${API_KEY:-supersecret}"', "API_KEY=${API_KEY:-supersecret}"])
      expect(redact(t)).not.toContain("supersecret");
  });

  it("masks env-style secrets, URLs with credentials, header forms, flags and token shapes", () => {
    const out = plantedLines().map(redact).join("\n");
    expect(leaks(out)).toEqual([]);
    expect(out).toContain("postgres://vllm:***@db.internal:5432/metrics");
    expect(out).toContain("Authorization: Basic ***");
    expect(out).toContain("X-Api-Key: ***");
    expect(out).toMatch(/HF_TOKEN=(hf_)?\*\*\*/);
  });

  it("leaves ordinary text alone", () => {
    for (const l of [
      "--max-num-batched-tokens 8192",
      "MAX_TOKENS=256",
      "GPU KV cache size: 131,072 tokens",
      "max_tokens: 256",
      "image@sha256:" + "a".repeat(64),
      "http://10.0.0.2:8000/v1/models",
    ]) {
      expect(redact(l)).toBe(l);
    }
  });

  it("declared env knobs are masked by what their value looks like, not only by name", () => {
    expect(valueLooksSecret(PLANTED.knobValue)).toBe(true);
    expect(valueLooksSecret(PLANTED.hfToken)).toBe(true);
    expect(valueLooksSecret("postgres://u:pw@host/db")).toBe(true);
    expect(valueLooksSecret("0.9")).toBe(false);
    expect(valueLooksSecret("/models/qwen3-32b")).toBe(false);
    expect(valueLooksSecret("Qwen3Coder30BA3BInstruct")).toBe(false); // a served model name, not a key
    expect(valueLooksSecret("Qwen3-Coder-30B-A3B-Instruct-FP8-Dynamic")).toBe(false);
    expect(valueLooksSecret("q8ZtR2vLx9PwK4nB7mC1dF6gH3jS5aY0eU2iO")).toBe(true);
    expect(mask("VLLM_S3_ACCESS", PLANTED.knobValue)).toBe("***");
    expect(mask("DATABASE_URL", "postgres://u:pw@host/db")).toBe("postgres://u:***@host/db");
    expect(mask("VLLM_ATTENTION_BACKEND", "FLASHINFER")).toBe("FLASHINFER");
  });
});

describe("sanitizeReport", () => {
  const hostile = report([
    {
      check: "deploy.ready",
      status: "fail",
      summary: `did not reach readiness: ${plantedLines()[0]}`,
      evidence: [`last engine line: ${plantedLines()[0]}`, ...plantedLines()],
      fix: `see ${plantedLines()[2]}`,
      file: "scripts/serve.sh",
      line: 3,
      data: { lastLine: plantedLines()[1], nested: { list: plantedLines(), n: 3 } },
    },
    { check: "verify.models", status: "warn", summary: `body: ${plantedLines()[5]}`, file: "scripts/serve.sh" },
  ]);

  it("leaves no planted secret in the terminal (with and without colour), JSON, summary or annotations", () => {
    const before = everyOutput(hostile);
    expect(leaks(before).length).toBeGreaterThan(0); // the renderers alone would leak
    const clean = sanitizeReport(hostile);
    expect(leaks(everyOutput(clean))).toEqual([]);
    expect(clean.findings[0]!.data).toMatchObject({ nested: { n: 3 } });
  });

  it("strips control characters: clipboard writes, screen clears, carriage returns, bidi overrides", () => {
    const evil = "ok\x1b]52;c;ZXZpbA==\x07 \x1b[2J\x1b[Hcleared\rover \u202Egnp.exe\x9b31m\x00end";
    const r = sanitizeReport(report([{ check: "deploy.ready", status: "fail", summary: evil, evidence: [evil] }]));
    for (const out of [
      renderTerminal(r, false),
      renderTerminal(r, true).replace(/\x1b\[[0-9;]*m/g, ""),
      renderJson(r),
      renderMarkdown(r),
    ]) {
      expect(out).not.toMatch(/\x1b\]|\x1b\[2J|\x1b\[H|\r|\u202E|\x9b|\x00|\x07/);
    }
    expect(r.findings[0]!.summary).toBe("ok clearedover gnp.exeend");
  });

  it("no line of the log can start with a workflow command, however the host text is split", () => {
    const text = "fine\n::error file=a::pwned\n  ::set-output name=verdict::pass\r\n::add-mask::x";
    const r = sanitizeReport(
      report([
        { check: "deploy.ready", status: "fail", summary: text, evidence: [text], fix: text, file: "scripts/serve.sh" },
      ]),
    );
    const out = [renderTerminal(r, false), ...annotationsOf(r).map((a) => a.message)].join("\n");
    for (const line of out.split("\n")) expect(line.trimStart()).not.toMatch(/^::/);
    expect(
      sanitizeLine(`[poll] archon: ${text}`)
        .split("\n")
        .every((l) => !l.trimStart().startsWith("::")),
    ).toBe(true);
  });
});
