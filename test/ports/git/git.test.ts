import { afterEach, describe, expect, it } from "vitest";
import { Git } from "../../../src/ports/git/git.js";
import { shallowClone, tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
const track = (r: TempRepo) => (repos.push(r), r);
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

describe("Git port on real repositories", () => {
  it("reports untracked, staged, modified and deleted files", async () => {
    const r = track(tempRepo());
    r.commit("init", { "a.sh": "a\n", "b.sh": "b\n", "c.sh": "c\n" });
    r.write("a.sh", "changed\n");
    r.write("new dir/untracked file.txt", "x");
    r.write("staged.sh", "s");
    r.git("add", "staged.sh");
    r.git("rm", "-q", "c.sh");
    const st = await new Git(r.dir).status();
    const byPath = Object.fromEntries(st.map((e) => [e.path, e.kind]));
    expect(byPath).toEqual({
      "a.sh": "modified",
      "new dir/untracked file.txt": "untracked",
      "staged.sh": "staged",
      "c.sh": "deleted",
    });
  });

  it("detects a shallow clone and resolves refs and files at refs", async () => {
    const r = track(tempRepo());
    const c1 = r.commit("one", { "s.sh": "v1\n" });
    r.commit("two", { "s.sh": "v2\n" });
    r.git("tag", "t1", c1);
    const g = new Git(r.dir);
    expect((await g.info())!.shallow).toBe(false);
    expect(await g.resolve("t1")).toBe(c1);
    expect(await g.resolve("no-such-ref")).toBeNull();
    expect(await g.resolve("--output=/tmp/x")).toBeNull();
    expect((await g.catFile(["t1:s.sh", "t1:missing.sh"], "--batch")).map((b) => b?.toString() ?? null)).toEqual([
      "v1\n",
      null,
    ]);
    expect(await g.branch()).toBe("main");
    r.git("checkout", "-q", "--detach", c1);
    expect(await g.branch()).toBeNull();
    const s = track(shallowClone(r.dir));
    expect((await new Git(s.dir).info())!.shallow).toBe(true);
  });

  it("reads a file's history with its patches in one pass, newest first", async () => {
    const r = track(tempRepo());
    r.commit("add", { "s.sh": "a\n--flag x\nb\n" });
    r.commit("other file", { "o.txt": "o" });
    const c3 = r.commit("drop flag", { "s.sh": "a\nb\n" });
    const h = (await new Git(r.dir).histories(["s.sh", "o.txt"])).get("s.sh")!;
    expect(h.map((e) => e.commit.subject)).toEqual(["drop flag", "add"]);
    expect(h[0]!.commit.sha).toBe(c3);
    expect(h[0]!.removed).toEqual(["--flag x"]);
    expect(h[1]!.added).toEqual(["a", "--flag x", "b"]);
    expect(h[0]!.commit.parents).toHaveLength(1);
  });
});

describe("Git.catFile", () => {
  it("reads many blobs and resolves many refs in one process each, null for what is missing", async () => {
    const r = tempRepo();
    repos.push(r);
    const c1 = r.commit("one", { "s.sh": "v1 ünïcode\n", "b.bin": "x" });
    r.git("tag", "t1");
    const g = new Git(r.dir);
    const blobs = await g.catFile([`${c1}:s.sh`, "t1:missing", "HEAD:b.bin"], "--batch");
    expect(blobs.map((b) => (b === null ? null : b.toString()))).toEqual(["v1 ünïcode\n", null, "x"]);
    expect(await g.catFile(["t1^{commit}", "nope^{commit}"], "--batch-check")).toEqual([c1, null]);
  });
});
