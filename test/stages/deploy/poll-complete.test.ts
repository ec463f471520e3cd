// A poll is an answer only when every section finished: output cut anywhere (sshd killed, the link gone,
// the session killed) is no reading, never "the container is gone". Cut points are taken from a real
// poll's output captured on the sandbox host (test/fixtures/journal/polls/poll-booting.txt).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePoll } from "../../../src/stages/deploy/poll-parse.js";
import { decide, initialState } from "../../../src/stages/deploy/readiness.js";

const full = readFileSync(join(import.meta.dirname, "../../fixtures/journal/polls/poll-booting.txt"), "utf8");

describe("poll completeness", () => {
  it("a whole poll that exited 0 is an answer", () => {
    expect(parsePoll(full, { code: 0 }).incomplete).toBeNull();
  });

  it("output cut at every line boundary is no reading", () => {
    const lines = full.split("\n");
    // every prefix that ends before the end line, including ones that end right after a section's rc
    for (let n = 1; n < lines.length - 2; n++) {
      const cut = lines.slice(0, n).join("\n") + "\n";
      expect(parsePoll(cut, { code: null }).incomplete, `cut after line ${n}`).not.toBeNull();
      expect(parsePoll(cut, { code: 0 }).incomplete, `cut after line ${n} (exit 0 claimed)`).not.toBeNull();
    }
  });

  it("a cut before the ps section would have read as no container: it is not an answer", () => {
    const cut = full.slice(0, full.indexOf("@@deploy-gate:ps"));
    const p = parsePoll(cut, { code: null });
    expect(p.container).toBeNull();
    expect(p.incomplete).toMatch(/stopped before its ps section/);
  });

  it("all sections but no exit status (the channel died at the very end) is no reading", () => {
    expect(parsePoll(full, { code: null }).incomplete).toMatch(/without an exit code/);
    expect(parsePoll(full, { code: 0, timedOut: true }).incomplete).toMatch(/timed out/);
  });

  it("a journal cut by the byte cap is still an answer: the other sections finished", () => {
    const cut = full.slice(0, full.indexOf("-- cursor:"));
    expect(parsePoll(cut, { code: 0, truncated: true }).incomplete).toBeNull();
    expect(parsePoll(cut, { code: 0 }).incomplete).not.toBeNull();
  });
});

describe("auth mismatch in the readiness decision", () => {
  const T0 = 1_795_992_000_000;
  const unit = {
    activeState: "active",
    subState: "running",
    nRestarts: 0,
    result: "success",
    execMainStatus: 0,
    execMainCode: "0",
  };
  const container = { id: "ab".repeat(32), state: "running", exitCode: 0, createdAtMs: T0 + 1000 };
  it.each([401, 403])("/v1/models answering %i fails at once, naming whether a key was sent", (status) => {
    const s = initialState(T0, 600_000);
    const d = decide(s, {
      hostNowMs: T0 + 3000,
      unit,
      container,
      messages: ["(APIServer pid=1) INFO:     Application startup complete."],
      models: { status, listsModel: false, error: null, sentKey: false },
    });
    expect(d.kind).toBe("fail");
    expect(d.kind === "fail" && d.failure).toBe("auth-mismatch");
    expect(d.kind === "fail" && d.reason).toMatch(new RegExp(`answered ${status}.*DEPLOY_GATE_API_KEY is unset`));
    const sent = decide(s, {
      hostNowMs: T0 + 3000,
      unit,
      container,
      messages: [],
      models: { status, listsModel: false, error: null, sentKey: true },
    });
    expect(sent.kind === "fail" && sent.reason).toMatch(/sent but it was refused/);
  });

  it("a 503 while the API comes up is still a wait", () => {
    const d = decide(initialState(T0, 600_000), {
      hostNowMs: T0 + 3000,
      unit,
      container,
      messages: ["(APIServer pid=1) INFO:     Application startup complete."],
      models: { status: 503, listsModel: false, error: null },
    });
    expect(d.kind).toBe("wait");
  });
});
