// Flagger's webhook payload (docs/gitbook/usage/webhooks.md in fluxcd/flagger, commit 061c179: POST
// {name, namespace, phase, metadata: {string: string}}; later versions add checksum), read strictly enough
// that a name can only ever fill a DNS label of the endpoint's url.
import { describe, expect, it } from "vitest";
import { fillUrl, parseFlaggerPayload } from "../../../src/domain/webhook/flagger.js";

describe("Flagger webhook payload", () => {
  it("reads the documented shape and tolerates fields added later (checksum)", () => {
    const p = parseFlaggerPayload(
      JSON.stringify({
        name: "podinfo",
        namespace: "test",
        phase: "Progressing",
        checksum: "7b5c8d",
        metadata: { endpoint: "chat", token: "16688eb5e9f289f1991c" },
      }),
    );
    expect(p).toEqual({
      ok: true,
      payload: {
        name: "podinfo",
        namespace: "test",
        phase: "Progressing",
        metadata: { endpoint: "chat", token: "16688eb5e9f289f1991c" },
      },
    });
  });

  it.each([
    ["not json", "{", /the body is not JSON/],
    ["an array", "[]", /expected a JSON object/],
    ["no name", JSON.stringify({ namespace: "t", phase: "Progressing" }), /name: expected a Kubernetes name/],
    [
      "a name that is no DNS label",
      JSON.stringify({ name: "a/../b", namespace: "t", phase: "P" }),
      /name: expected a Kubernetes name/,
    ],
    ["a namespace too long", JSON.stringify({ name: "a", namespace: "n".repeat(64), phase: "P" }), /namespace/],
    ["no phase", JSON.stringify({ name: "a", namespace: "t" }), /phase: expected a string/],
    [
      "metadata not strings",
      JSON.stringify({ name: "a", namespace: "t", phase: "P", metadata: { x: 1 } }),
      /metadata\.x: expected a string/,
    ],
  ])("refuses %s with what Flagger must send", (_why, body, message) => {
    const p = parseFlaggerPayload(body);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.error).toMatch(message);
  });

  it("fills {name} and {namespace} in the endpoint's url, nothing else", () => {
    expect(fillUrl("http://{name}-canary.{namespace}:8000", { name: "chat", namespace: "llm" })).toBe(
      "http://chat-canary.llm:8000",
    );
    expect(fillUrl("http://10.0.0.5:8000", { name: "chat", namespace: "llm" })).toBe("http://10.0.0.5:8000");
  });
});
