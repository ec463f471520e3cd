// The gate's own secrets masked by value (issue 27, low): an error body quoting the sent API key.
import { describe, expect, it } from "vitest";
import { maskKnown } from "../../../src/domain/redact/known.js";
import { buildReport } from "../../../src/commands/shared/report.js";
import { fail } from "../../../src/domain/report/finding.js";
import type { Workspace } from "../../../src/commands/shared/workspace.js";
import type { Options } from "../../../src/commands/options.js";

const KEY = "plain-looking-key-4711"; // no token shape, no secret name near it: only its value gives it away

describe("maskKnown", () => {
  it("masks every occurrence of a known value in every string, deeply", () => {
    const v = { a: `401: key ${KEY} is not valid`, b: [`x${KEY}x`, 3, null], c: { d: KEY } };
    expect(maskKnown(v, [KEY])).toEqual({ a: "401: key *** is not valid", b: ["x***x", 3, null], c: { d: "***" } });
  });

  it("leaves text alone when no secret is known, and never masks a value too short to be one", () => {
    const v = { a: "models: qwen on port 1" };
    expect(maskKnown(v, [])).toBe(v);
    expect(maskKnown(v, ["1"])).toEqual(v);
  });
});

describe("the report of a run", () => {
  it("holds no value of the gate's own API key or passphrase, wherever a host or server quoted it", () => {
    const ws = { config: null, secrets: [KEY, "my ssh passphrase"] } as unknown as Workspace;
    const opts = { command: "verify", endpoint: null } as unknown as Options;
    const report = buildReport(ws, opts, {
      findings: [
        fail("verify.models", `/v1/models answered 401: {"error":"bad key ${KEY}"}`, {
          evidence: ["passphrase my ssh passphrase refused"],
        }),
      ],
      ref: { name: "HEAD", sha: null },
      durationMs: 1,
    });
    const text = JSON.stringify(report);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("my ssh passphrase");
    expect(text).toContain("bad key ***");
  });
});
