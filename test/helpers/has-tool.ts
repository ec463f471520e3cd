// Is a renderer on PATH (kubectl, helm)? Tests that need it run only then; CI installs both (.ci/run).
import { execFileSync } from "node:child_process";

export function hasTool(program: string): boolean {
  for (const args of [["version", "--client"], ["version"]]) {
    try {
      execFileSync(program, args, { stdio: "ignore" });
      return true;
    } catch {
      // the next form of the version command
    }
  }
  return false;
}
