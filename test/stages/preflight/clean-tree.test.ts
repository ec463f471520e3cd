import { describe, expect, it } from "vitest";
import { cleanTreeFinding } from "../../../src/stages/preflight/clean-tree.js";

describe("preflight.clean-tree", () => {
  it("passes an empty status", () => expect(cleanTreeFinding([]).status).toBe("pass"));
  it("fails on an untracked file alone and says bare git stash is not enough", () => {
    const f = cleanTreeFinding([{ path: "notes.txt", code: "??", kind: "untracked" }]);
    expect(f.status).toBe("fail");
    expect(f.evidence).toEqual(["?? notes.txt (untracked)"]);
    expect(f.fix).toContain("git stash -u");
    expect(f.fix).toContain("bare `git stash`");
  });
  it("names each file and counts kinds", () => {
    const f = cleanTreeFinding([
      { path: "a", code: " M", kind: "modified" },
      { path: "b", code: "M ", kind: "staged" },
      { path: "c", code: "??", kind: "untracked" },
    ]);
    expect(f.summary).toBe("work tree is not clean: 1 modified, 1 staged, 1 untracked");
    expect(f.evidence).toHaveLength(3);
  });
});
