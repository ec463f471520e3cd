// A file with an execute bit, no `#!` line and no extension (`docker/run`): execve refuses it with ENOEXEC and the
// shell that called it runs it as a script (bash(1), COMMAND EXECUTION), so discovery reads it as one; the same text
// without the bit, and a LICENSE or Dockerfile with it (a repository committed from Windows), are not scripts.
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const RUN = (tail: string) =>
  `# the llama.cpp full image's tools.sh picks the server\ndocker run --rm --net host -v ./models:/models ghcr.io/ggml-org/llama.cpp:full ${tail}\n`;

async function preflight(dir: string, args: string[] = []): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: dir,
  });
  return JSON.parse(out) as Report;
}

function repo(files: Record<string, string>, executable: string[]): TempRepo {
  const r = tempRepo();
  repos.push(r);
  for (const [f, text] of Object.entries(files)) r.write(f, text);
  for (const f of executable) chmodSync(join(r.dir, f), 0o755);
  r.git("add", "-A");
  r.git("commit", "-qm", "launch files");
  return r;
}

const serving = (rep: Report) =>
  [...new Set(rep.findings.filter((f) => f.check === "preflight.bash-syntax" && f.file).map((f) => f.file))].sort();

describe("an executable file without #! or extension", () => {
  it("is a serve script when it has the execute bit, and not without it", async () => {
    const text = RUN("--server -m /models/q.gguf --host 0.0.0.0 --port 8080");
    const withBit = await preflight(repo({ "docker/run": text, "docker/run-copy": text }, ["docker/run"]).dir);
    expect(serving(withBit)).toEqual(["docker/run"]);
  });

  it("is never a LICENSE, README or Dockerfile, whatever their mode", async () => {
    const text = RUN("--server -m /models/q.gguf");
    const rep = await preflight(
      repo({ LICENSE: text, Dockerfile: text, README: text }, ["LICENSE", "Dockerfile", "README"]).dir,
    );
    expect(serving(rep)).toEqual([]);
  });

  it("whose launch went away whole has its flags traced to the commit", async () => {
    const r = repo({ "docker/run": RUN("--server -m /models/q.gguf --host 0.0.0.0") }, ["docker/run"]);
    const base = r.git("rev-parse", "HEAD").trim();
    r.write(
      "docker/run",
      RUN("").replace("llama.cpp:full", "llama.cpp:full --entrypoint bash").replace("--rm", "-it --rm"),
    );
    r.git("commit", "-qam", "a shell instead");
    const rep = await preflight(r.dir, ["--base", base]);
    const dropped = rep.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(dropped.map((f) => /: (\S+) /.exec(f.summary)?.[1]).sort()).toEqual(["--host", "-m"]);
    expect(dropped.every((f) => f.file === "docker/run" && /line 2\)/.test(f.summary))).toBe(true);
  });
});
