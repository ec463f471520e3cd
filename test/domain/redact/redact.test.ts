import { expect, it } from "vitest";
import { redactSecrets } from "../../../src/domain/redact/redact.js";

it("hides api keys in every spelling", () => {
  const out = redactSecrets(
    "args: Namespace(api_key='sk-1') {'api_key': 'sk-2', 'hf_token': \"hf_x\"} --api-key sk-3 Bearer sk-4",
  );
  expect(out).not.toMatch(/sk-\d|hf_x/);
  expect(out).toContain("api_key='***'");
});
