// Real temporary git repositories for tests: commits, tags, shallow clones.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TempRepo {
  dir: string;
  git: (...args: string[]) => string;
  /** bytes as they are (a chart's vendored .tgz), or text */
  write: (path: string, text: string | Uint8Array) => void;
  commit: (message: string, files?: Record<string, string>) => string;
  cleanup: () => void;
}

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function tempRepo(prefix = "dg-repo-"): TempRepo {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  git("init", "-q", "-b", "main");
  const write = (path: string, text: string | Uint8Array) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const commit = (message: string, files: Record<string, string> = {}) => {
    for (const [p, t] of Object.entries(files)) write(p, t);
    git("add", "-A");
    git("commit", "-q", "--allow-empty", "-m", message);
    return git("rev-parse", "HEAD").trim();
  };
  return { dir, git, write, commit, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `git clone --depth 1 file://...`, as actions/checkout does by default. */
export function shallowClone(src: string): TempRepo {
  const dir = mkdtempSync(join(tmpdir(), "dg-shallow-"));
  execFileSync("git", ["clone", "-q", "--depth", "1", `file://${src}`, dir], { env: ENV, stdio: "ignore" });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: ENV, encoding: "utf8" });
  const write = (path: string, text: string | Uint8Array) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  return {
    dir,
    git,
    write,
    commit: (m) => (git("commit", "-qam", m), git("rev-parse", "HEAD").trim()),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
