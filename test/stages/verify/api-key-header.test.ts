// A DEPLOY_GATE_API_KEY that no header can carry (a second line, a control character): fetch refuses the
// header with a message that quotes it whole. The gate says what is wrong without a byte of the key.
import { describe, expect, it } from "vitest";
import { request } from "../../../src/ports/http/client.js";
import { sanitizeText } from "../../../src/domain/report/sanitize.js";
import { streamFromRunner } from "../../../src/ports/http/stream-route.js";

const KEY = "firstline\nSECONDLINEOFKEY";
const headers = { authorization: `Bearer ${KEY}` };

describe("an API key a header cannot carry", () => {
  it("request and the streamed decode name the problem, never the key", async () => {
    const r = await request("GET", "http://127.0.0.1:9/v1/models", undefined, { headers, timeoutMs: 2000 });
    const s = await streamFromRunner("http://127.0.0.1:9/v1/chat/completions", {}, headers, 2000);
    for (const error of [r.error!, s.error!]) {
      expect(error).toMatch(/DEPLOY_GATE_API_KEY holds a character no HTTP header can carry/);
      expect(sanitizeText(error)).not.toMatch(/firstline|SECONDLINE/);
    }
  });
});
