// The Action's default base on a pull request: the event payload's base sha, else origin/GITHUB_BASE_REF.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pullRequestBase } from "../../src/action/pull-request-base.js";

const dir = mkdtempSync(join(tmpdir(), "dg-event-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const event = (payload: unknown) => {
  const path = join(dir, `event-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(payload));
  return path;
};
const SHA = "0123456789abcdef0123456789abcdef01234567";

describe("pullRequestBase", () => {
  it("takes the PR's base commit from the event payload", () => {
    expect(
      pullRequestBase({
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: event({ pull_request: { base: { sha: SHA, ref: "main" } } }),
        GITHUB_BASE_REF: "main",
      }),
    ).toBe(SHA);
  });

  it("falls back to origin/<base branch> when the payload has no usable sha", () => {
    expect(
      pullRequestBase({
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: event({ pull_request: { base: { sha: "$(rm -rf /)" } } }),
        GITHUB_BASE_REF: "main",
      }),
    ).toBe("origin/main");
    expect(
      pullRequestBase({
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: join(dir, "missing.json"),
        GITHUB_BASE_REF: "release",
      }),
    ).toBe("origin/release");
  });

  it("leaves the base to preflight on any other event", () => {
    expect(pullRequestBase({ GITHUB_EVENT_NAME: "push", GITHUB_BASE_REF: "" })).toBeNull();
    expect(pullRequestBase({})).toBeNull();
  });
});
