// `deploy-gate preflight --json` through the CLI on a fresh repository holding the given files.
import { main } from "../../src/cli/main.js";
import type { Report } from "../../src/domain/report/finding.js";
import type { TempRepo } from "./repo.js";
import { tempRepo } from "./repo.js";

export async function preflightReport(files: Record<string, string>, repos: TempRepo[]): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  r.commit("add", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return JSON.parse(out) as Report;
}

/** The same on a repository with one commit per entry of `commits`, in order; `args` added to the command. */
export async function preflightHistory(
  commits: Record<string, string>[],
  repos: TempRepo[],
  args: string[] = [],
): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  commits.forEach((files, i) => r.commit(`change ${i}`, files));
  let out = "";
  const io = { out: (s: string) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir };
  await main(["preflight", "--json", ...args], io);
  return JSON.parse(out) as Report;
}
