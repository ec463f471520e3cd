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

describe("preflight.clean-tree: files the gate itself needs", () => {
  it("an untracked config is to be committed, never stashed (stashing hides the config the gate reads)", () => {
    const f = cleanTreeFinding([{ path: "deploy-gate.yml", code: "??", kind: "untracked" }], {
      config: "deploy-gate.yml",
    });
    expect(f.status).toBe("fail");
    expect(f.fix).toContain("git add deploy-gate.yml && git commit");
    expect(f.fix).not.toMatch(/stash/);
  });
  it("the npm pack tarball of the gate: moved out of the tree or ignored, never stashed", () => {
    const f = cleanTreeFinding([{ path: "deploy-gate-0.1.0.tgz", code: "??", kind: "untracked" }], {});
    expect(f.fix).toMatch(/deploy-gate-0\.1\.0\.tgz/);
    expect(f.fix).toMatch(/\.gitignore|outside the repository/);
    expect(f.fix).not.toMatch(/stash/);
  });
  it("other files beside them are stashed by name, so the stash leaves the gate's files in place", () => {
    const f = cleanTreeFinding(
      [
        { path: "ci/deploy-gate.yml", code: "??", kind: "untracked" },
        { path: "notes.txt", code: "??", kind: "untracked" },
        { path: "scripts/serve.sh", code: " M", kind: "modified" },
      ],
      { config: "ci/deploy-gate.yml" },
    );
    expect(f.fix).toContain("git add ci/deploy-gate.yml && git commit");
    expect(f.fix).toContain("git stash push -u -- notes.txt scripts/serve.sh");
    expect(f.fix).not.toMatch(/stash[^;]*ci\/deploy-gate\.yml/);
  });
});
