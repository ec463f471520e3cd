// The git port on what red-team runs found: file names git C-quotes, renames, a repository owned
// by another user.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Git, unquoteC } from "../../../src/ports/git/git.js";
import { UsageError } from "../../../src/commands/options.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
const track = (r: TempRepo) => (repos.push(r), r);
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  vi.unstubAllEnvs();
});

// git C-quotes every one of these in a diff header, even with core.quotepath=off (but ü)
const ODD = ['say "hi".sh', "back\\slash.sh", "tab\there.sh", "new\nline.sh", "x b/y.sh", "ctl\u0001.sh", "ü.sh"];

describe("Git.histories with file names git quotes", () => {
  it("reads each file's history whatever its name", async () => {
    const r = track(tempRepo());
    r.commit("add", Object.fromEntries(ODD.map((p) => [p, "a\n--flag x\nb\n"])));
    r.commit("drop", Object.fromEntries(ODD.map((p) => [p, "a\nb\n"])));
    const h = await new Git(r.dir).histories(ODD);
    for (const p of ODD) {
      expect(
        h.get(p)!.map((e) => e.commit.subject),
        p,
      ).toEqual(["drop", "add"]);
      expect(h.get(p)![0]!.removed, p).toEqual(["--flag x"]);
    }
  });

  it("takes a path as a literal name, not as pathspec magic", async () => {
    const r = track(tempRepo());
    r.commit("add", { ":x.sh": "a\n" }); // as a pathspec, ":x.sh" means "x.sh"
    const h = await new Git(r.dir).histories([":x.sh"]);
    expect(h.get(":x.sh")!.map((e) => e.commit.subject)).toEqual(["add"]);
  });
});

describe("Git.histories under the user's diff settings", () => {
  it("reads the history with diff.noprefix set", async () => {
    const r = track(tempRepo());
    r.commit("add", { "s.sh": "a\n--flag x\n" });
    vi.stubEnv("GIT_CONFIG_COUNT", "1");
    vi.stubEnv("GIT_CONFIG_KEY_0", "diff.noprefix");
    vi.stubEnv("GIT_CONFIG_VALUE_0", "true");
    expect((await new Git(r.dir).histories(["s.sh"])).get("s.sh")!.map((e) => e.added)).toEqual([["a", "--flag x"]]);
  });
});

describe("unquoteC", () => {
  it("decodes git's escapes, octal bytes as UTF-8, and stops at the closing quote", () => {
    // "\303\274" is how git writes ü with core.quotepath on
    expect(unquoteC('"a/\\303\\274 \\"q\\" \\\\ \\t\\n\\001 😀" rest')).toEqual({
      value: 'a/ü "q" \\ \t\n\u0001 😀',
      rest: " rest",
    });
    expect(unquoteC('"a/\\x"')).toBeNull();
    expect(unquoteC('"unterminated')).toBeNull();
  });
});

describe("Git.catFile with a newline in a path", () => {
  it("reads the blob instead of refusing", async () => {
    const r = track(tempRepo());
    r.commit("add", { "new\nline.sh": "v1\n" });
    const [b, missing] = await new Git(r.dir).catFile(["HEAD:new\nline.sh", "HEAD:new\nother.sh"], "--batch");
    expect(b?.toString()).toBe("v1\n");
    expect(missing).toBeNull();
  });
});

describe("Git.nameAt", () => {
  it("follows renames back to the name a file had at an older commit", async () => {
    const r = track(tempRepo());
    const body = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const c1 = r.commit("add", { "scripts/serve-a.sh": body });
    r.git("mv", "scripts/serve-a.sh", "scripts/a.sh");
    r.commit("rename and edit", { "scripts/a.sh": body.replace("line 5\n", "") });
    r.git("mv", "scripts/a.sh", 'scripts/"b".sh');
    r.commit("rename again");
    const g = new Git(r.dir);
    expect(await g.nameAt('scripts/"b".sh', c1)).toBe("scripts/serve-a.sh");
    expect(await g.nameAt('scripts/"b".sh', "HEAD~1")).toBe("scripts/a.sh");
    expect(await g.nameAt('scripts/"b".sh', "HEAD")).toBeNull();
  });

  it("reports a staged rename's source in git status", async () => {
    const r = track(tempRepo());
    r.commit("add", { "a.sh": "same\ncontent\n" });
    r.git("mv", "a.sh", "tab\tb.sh");
    expect(await new Git(r.dir).status()).toEqual([{ path: "tab\tb.sh", from: "a.sh", code: "R ", kind: "renamed" }]);
  });
});

describe("Git.info in a repository owned by another user", () => {
  it("names git's safe.directory fix instead of returning 'not a repository'", async () => {
    const r = track(tempRepo());
    r.commit("init", { "a.sh": "a\n" });
    // git's own switch for this check: the same refusal as a checkout owned by another uid (CI containers)
    vi.stubEnv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1");
    vi.stubEnv("GIT_CONFIG_GLOBAL", "/dev/null");
    vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
    const err = await new Git(r.dir).info().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain("dubious ownership");
    expect((err as Error).message).toContain(`git config --global --add safe.directory ${r.dir}`);
    expect((err as Error).message).toContain("actions/checkout");
  });

  it("still returns null outside any repository", async () => {
    vi.stubEnv("GIT_CEILING_DIRECTORIES", "/");
    expect(await new Git("/").info()).toBeNull();
  });
});

describe("GitReader with a path outside the repository", () => {
  it("answers null (no history) for it, and still reads the paths asked beside it", async () => {
    const { GitReader } = await import("../../../src/ports/git/batched.js");
    const r = track(tempRepo());
    r.commit("add", { "compose.yaml": "services: {}\n" });
    const reader = new GitReader(new Git(r.dir));
    // (round AD's compose build context `../ouroboros_runtime`: asked in the same batch, it failed the whole run)
    const [outside, inside, absolute] = await Promise.all([
      reader.show("HEAD", "../ouroboros_runtime/Dockerfile"),
      reader.show("HEAD", "compose.yaml"),
      reader.show("HEAD", "/etc/passwd"),
    ]);
    expect([outside, inside, absolute]).toEqual([null, "services: {}\n", null]);
    expect(await reader.history("a/../../x.sh")).toEqual([]);
  });
});
