// With no deploy-gate.yml: find the serve scripts (shell scripts that run `podman run` or `vllm serve`).
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isServeScript } from "../script/detect.js";
import type { PreflightTarget } from "./context.js";

const SHELL_SHEBANG = /^#!.*\b(ba|z|k|)sh\b/;

export function discoverTargets(root: string, files: readonly string[]): PreflightTarget[] {
  const targets: PreflightTarget[] = [];
  for (const file of files) {
    if (/(^|\/)(node_modules|dist|\.git)\//.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue;
    }
    const shellish = file.endsWith(".sh") || file.endsWith(".bash") || SHELL_SHEBANG.test(text);
    if (!shellish || text.includes("\0") || !isServeScript(text)) continue;
    targets.push({ name: basename(file).replace(/\.(ba)?sh$/, ""), scriptPath: file, unitPath: null, endpoint: null });
  }
  return targets.sort((a, b) => a.scriptPath.localeCompare(b.scriptPath));
}
