// Rendering a Helm chart (`helm template`) or a kustomize overlay (`kubectl kustomize`) into the manifests they
// stand for, when the tool is on PATH. Never through a shell; every render has a deadline.
import { runLocal } from "./run-local.js";

export type RenderTool = "helm" | "kustomize";

export type Rendered = { text: string } | { missing: string } | { error: string };

/** What each tool is run as, and what to do when it is absent. */
export const RENDERERS: Record<RenderTool, { program: string; args: (dir: string) => string[]; need: string }> = {
  helm: {
    program: "helm",
    // a fixed release name: the render is compared across commits, so nothing in it may vary between runs
    args: (dir) => ["template", "deploy-gate", dir],
    need: "put helm on PATH to render it (no Debian package ships helm: install it from the Helm project's releases)",
  },
  kustomize: {
    program: "kubectl",
    args: (dir) => ["kustomize", dir],
    need: "put kubectl on PATH to render it (apt-get install kubernetes-client)",
  },
};

export async function renderManifests(tool: RenderTool, absDir: string, timeoutMs = 60_000): Promise<Rendered> {
  const r = RENDERERS[tool];
  const out = await runLocal(r.program, r.args(absDir), { timeoutMs });
  if (out.spawnError) return { missing: r.need };
  if (out.timedOut) return { error: `${r.program} did not finish within ${timeoutMs / 1000} s` };
  if (out.code !== 0) return { error: out.stderr.trim().split("\n")[0] ?? `${r.program} exited ${out.code}` };
  return { text: out.stdout };
}
