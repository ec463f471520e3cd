import { describe, expect, it } from "vitest";
import { redact, redactSecrets } from "../../../src/domain/redact/redact.js";

it("hides api keys in every spelling", () => {
  const out = redactSecrets(
    "args: Namespace(api_key='sk-1') {'api_key': 'sk-2', 'hf_token': \"hf_x\"} --api-key sk-3 Bearer sk-4",
  );
  expect(out).not.toMatch(/sk-\d|hf_x/);
  expect(out).toContain("api_key='***'");
});

// Issue 27: forms the redactor let through, each seen in a real log shape.
it.each([
  ["a URL with an empty user", "connecting to redis://:Hunter2Secret@cache:6379/0", "Hunter2Secret"],
  ["a URL password holding @", "postgres://app:pa@ss-Hunter2@db.internal/serve", "ss-Hunter2"],
  [
    "an argv printed as a Python list in a launcher's traceback",
    "subprocess.CalledProcessError: Command '['vllm', 'serve', '/m', '--api-key', 'Hunter2Secret']' returned non-zero exit status 1.",
    "Hunter2Secret",
  ],
  ["an argv printed as a JSON list", 'argv: ["vllm","serve","--hf-token","Hunter2Secret"]', "Hunter2Secret"],
  [
    "a flag and its value several spaces apart",
    "vllm serve /m --api-key    Hunter2Secret --port 8000",
    "Hunter2Secret",
  ],
  ["a flag and its value a tab apart", "vllm serve /m --api-key\tHunter2Secret", "Hunter2Secret"],
  ["a *_PASSPHRASE= assignment", "Environment=DEPLOY_GATE_SSH_PASSPHRASE=Hunter2Secret", "Hunter2Secret"],
])("masks %s", (_what, line, secret) => {
  const out = redact(line);
  expect(out).not.toContain(secret);
  expect(out).toContain("***");
});

it("keeps what is not a secret in those forms: the URL's host, the list's other words, the flag after", () => {
  expect(redact("redis://:pw@cache:6379/0")).toBe("redis://:***@cache:6379/0");
  expect(redact("postgres://app:pa@ss@db/x")).toBe("postgres://app:***@db/x");
  expect(redact("Command '['vllm', 'serve', '--api-key', 'k']'")).toBe(
    "Command '['vllm', 'serve', '--api-key', '***']'",
  );
  expect(redact("--api-key    k --port 8000")).toBe("--api-key    *** --port 8000");
});

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
