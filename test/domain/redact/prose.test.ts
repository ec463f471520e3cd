import { describe, expect, it } from "vitest";
import { redact } from "../../../src/domain/redact/redact.js";

// Issue 25 let a word of an errno after `credentials:` pass as prose; a value after `=` is an assignment, never a
// sentence, and a secret that happens to be such a word must still be masked.
describe("prose after a colon, not after an assignment", () => {
  it.each([
    ["DB_PASSWORD=Invalid", "DB_PASSWORD=***"],
    ["HF_TOKEN=Unknown", "HF_TOKEN=***"],
    ["api_key=Failed", "api_key=***"],
    ["Environment=VLLM_API_KEY=Operation", "Environment=VLLM_API_KEY=***"],
    ["password: hunter2", "password: ***"],
    ["credentials: sk-live-4f9a0c1d2e3b", "credentials: ***"],
    ["password: Failed-2024!", "password: ***"],
  ])("%s is masked", (line, want) => {
    expect(redact(line)).toBe(want);
  });

  it.each([
    "vllm.service: Failed to determine user credentials: No such process",
    "Failed to set up credentials: Permission denied",
    "password: the one in the Secret",
  ])("%s is kept", (line) => {
    expect(redact(line)).toBe(line);
  });
});
