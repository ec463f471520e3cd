import { expect, it } from "vitest";
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
