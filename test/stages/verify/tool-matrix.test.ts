// verify.tools' matrix over real HTTP against the engine double on loopback: a faithful engine passes
// every case; an engine that breaks one contract (FAKE_BREAK) fails exactly that case, with its cause.
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { askToolCases, checkToolMatrix } from "../../../src/stages/verify/tools.js";
import { FULL_ARGS, serveDouble } from "../../sandbox/engine/loopback.js";

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function matrix(args: readonly string[] = FULL_ARGS, env: Record<string, string> = {}) {
  const d = await serveDouble(args, env);
  closers.push(d.close);
  const answers = await askToolCases(runnerRoute(d.url, {}), "qwen", 20_000);
  const has = (f: string) => args.includes(f);
  const parser = has("--tool-call-parser") ? args[args.indexOf("--tool-call-parser") + 1]! : null;
  return checkToolMatrix(answers, d.url, "runner", {
    autoToolChoice: has("--enable-auto-tool-choice"),
    toolCallParser: parser,
    model: "qwen",
  });
}

describe("verify.tools: the tool-calling matrix", () => {
  it("passes every case against a faithful engine, each case in the data", async () => {
    const f = await matrix();
    expect(f.status, JSON.stringify(f)).toBe("pass");
    expect(f.summary).toMatch(/auto, required, named, none, parallel, stream, roundtrip/);
    const cases = (f.data as { cases: Record<string, { ok: boolean }> }).cases;
    expect(Object.keys(cases)).toEqual(["auto", "required", "named", "none", "parallel", "stream", "roundtrip"]);
    expect(Object.values(cases).every((c) => c.ok)).toBe(true);
  });

  it.for([
    ["tool-required", "required", "server"],
    ["tool-named", "named", "server"],
    ["tool-none", "none", "server"],
    ["tool-parallel", "parallel", "model"],
    ["tool-stream", "stream", "server"],
    ["tool-roundtrip", "roundtrip", "template"],
  ] as const)("FAKE_BREAK=%s fails exactly the %s case (cause %s)", async ([brk, name, cause]) => {
    const f = await matrix(FULL_ARGS, { FAKE_BREAK: brk });
    expect(f.status).toBe("fail");
    expect((f.data as { failed: string[] }).failed).toEqual([name]);
    expect((f.data as { cases: Record<string, { cause: string }> }).cases[name]!.cause).toBe(cause);
    expect(f.summary).toMatch(new RegExp(`^tool calling broken in 1 of 7 cases: ${name} \\(`));
    expect(f.fix).toMatch(/\S/);
  });

  it("a server with the parser but no --enable-auto-tool-choice: a flags gap naming only the missing flag", async () => {
    const args = FULL_ARGS.filter((a) => a !== "--enable-auto-tool-choice");
    const f = await matrix(args);
    expect(f.status).toBe("fail");
    expect(f.fix).toMatch(/config gap, not a model fault: add --enable-auto-tool-choice to/);
    expect(f.fix).not.toMatch(/--tool-call-parser </);
    // required and named need only the parser, so they were served
    expect((f.data as { cases: Record<string, { ok: boolean }> }).cases.required!.ok).toBe(true);
  });

  it("a server without any tool flag: every case is the flags gap, said once", async () => {
    const f = await matrix(FULL_ARGS.filter((a) => !/tool|qwen3_xml/.test(a)));
    expect(f.status).toBe("fail");
    const cases = (f.data as { cases: Record<string, { cause: string }> }).cases;
    expect(cases.required!.cause).toBe("flags");
    expect(cases.named!.cause).toBe("flags");
    expect(f.evidence).toContainEqual(
      expect.stringMatching(/required: HTTP 400: tool_choice="required" requires --tool-call-parser/),
    );
  });
});
