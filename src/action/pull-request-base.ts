// The base dropped-flags compares with, in the Action: on a pull request, the PR's base commit (so a flag
// dropped in the PR's first commit of several is still caught), else none (preflight picks its own).
import { readFileSync } from "node:fs";

export function pullRequestBase(env: NodeJS.ProcessEnv): string | null {
  if (env.GITHUB_EVENT_NAME !== "pull_request" && env.GITHUB_EVENT_NAME !== "pull_request_target") return null;
  if (env.GITHUB_EVENT_PATH) {
    try {
      const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8")) as {
        pull_request?: { base?: { sha?: unknown } };
      };
      const sha = event.pull_request?.base?.sha;
      if (typeof sha === "string" && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    } catch {
      // an unreadable payload falls back to the base branch name
    }
  }
  // actions/checkout fetches the base branch as origin/NAME with fetch-depth: 0
  return env.GITHUB_BASE_REF ? `origin/${env.GITHUB_BASE_REF}` : null;
}
