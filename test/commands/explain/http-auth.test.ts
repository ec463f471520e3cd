// A pasted `curl -i` answer that is a 401/403 (with or without its `$ curl` prompt line): auth-mismatch.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";

const resp = (status: string) =>
  `HTTP/1.1 ${status}\ndate: Thu, 20 Nov 2025 08:41:17 GMT\nserver: uvicorn\ncontent-type: application/json\n\n{"error":"Unauthorized"}\n`;

describe("explain: an HTTP 401/403", () => {
  it("is auth-mismatch with the key fix, also under the shell prompt line it was pasted with", () => {
    for (const text of [
      resp("401 Unauthorized"),
      `$ curl -si http://10.30.2.11:8000/v1/models\n${resp("401 Unauthorized")}`,
      resp("403 Forbidden"),
    ]) {
      const r = explain(text);
      expect(r.class, text).toBe("auth-mismatch");
      expect(r.decisive).toMatch(/^HTTP 40[13]: Unauthorized/);
      expect(r.fix).toMatch(/DEPLOY_GATE_API_KEY/);
    }
  });

  it("a 200 listing models is not an auth mismatch", () => {
    expect(
      explain(
        `$ curl -si http://h:8000/v1/models\nHTTP/1.1 200 OK\ncontent-type: application/json\n\n{"object":"list","data":[{"id":"qwen"}]}\n`,
      ).class,
    ).not.toBe("auth-mismatch");
  });
});
