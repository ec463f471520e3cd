// Rendering a Helm chart (`helm template`) or a kustomize overlay (`kubectl kustomize`) into the manifests they
// stand for, when the tool is on PATH. Never through a shell; every render has a deadline.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { chartWithDependencies, localDependencies, sourcesInRepository, type LocalDependency } from "./helm-deps.js";
import { runLocal } from "./run-local.js";

export type RenderTool = "helm" | "kustomize";

/** `note`: the render needed something the tool refuses by default (said plainly, with what to do). */
export type Rendered = { text: string; note?: { why: string; fix: string } } | { missing: string } | { error: string };

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

/** kubectl logs through klog (`E1203 07:10:20.9 26053 run.go:72] "command failed" err="..."`): the err text. */
export function toolError(stderr: string): string {
  // (kustomize prints its deprecation warnings first: `# Warning: 'commonLabels' is deprecated...`)
  const lines = stderr
    .trim()
    .split("\n")
    .filter((l, i, all) => !/^# Warning: /.test(l) || all.every((x) => /^# Warning: /.test(x)));
  const first = lines[0] ?? "";
  const m = /\berr="((?:[^"\\]|\\.)*)"/.exec(first);
  if (m) return m[1]!.replace(/\\(["\\])/g, "$1");
  // klog writes an error holding newlines as a block: `err=<`, the message's lines indented by a tab, then ` >`
  if (/\berr=<\s*$/.test(first)) {
    const end = lines.findIndex((l, i) => i > 0 && /^\s*>\s*$/.test(l));
    const block = lines.slice(1, end < 0 ? undefined : end).map((l) => l.trim());
    return block.filter(Boolean).join(" ");
  }
  return first;
}

/** kustomize's load restrictor refusing a file outside the overlay: the file and the overlay's directory. */
export function restrictorRefusal(error: string): { file: string; root: string } | null {
  const m = /security; file '([^']+)' is not in or below '([^']+)'/.exec(error);
  return m ? { file: m[1]!, root: m[2]! } : null;
}

/** Every path the kustomization names (`- ../x.yaml`, `path: ../x`) stays inside `within`. */
function pathsInside(absDir: string, within: string): boolean {
  let text: string;
  try {
    text = readFileSync(resolve(absDir, "kustomization.yaml"), "utf8");
  } catch {
    try {
      text = readFileSync(resolve(absDir, "kustomization.yml"), "utf8");
    } catch {
      return false;
    }
  }
  // every bare scalar that could be a path (a list item or a `path:` value); keys and URLs hold a colon; an inline
  // patch's text (`patch: |-` and the lines under it: JSON patch `path: /spec/...` pointers) names no file
  text = withoutInlinePatches(text);
  const named = [...text.matchAll(/^\s*(?:-\s*)?(?:path\s*:\s*)?(["']?)([^\s"'#:]+)\1\s*(?:#.*)?$/gm)];
  return named.every((m) => {
    const rel = relative(within, resolve(absDir, m[2]!));
    return !m[2]!.startsWith("/") && !rel.startsWith("..") && !isAbsolute(rel);
  });
}

/** The kustomization without the text of its inline patches (`patch: |-` and the lines indented under it). */
function withoutInlinePatches(text: string): string {
  const out: string[] = [];
  let under = -1;
  for (const line of text.split("\n")) {
    const lead = line.length - line.trimStart().length;
    if (under >= 0 && (line.trim() === "" || lead > under)) continue;
    under = /^\s*(?:-\s*)?patch\s*:\s*[|>]/.test(line) ? lead : -1;
    out.push(line);
  }
  return out.join("\n");
}

/**
 * `within` (the repository tree): an overlay that reaches a file outside its directory is refused by kustomize's
 * default load restrictor; when every path it names stays inside `within`, it is rendered again with the
 * restrictor off, so what it means is still checked, and the refusal is returned as a note.
 */
export async function renderManifests(
  tool: RenderTool,
  absDir: string,
  { timeoutMs = 60_000, within, valueFiles = [] }: { timeoutMs?: number; within?: string; valueFiles?: string[] } = {},
): Promise<Rendered> {
  const r = RENDERERS[tool];
  // value files a deployment applies on top of the chart's own (`-f` each, in order; paths from the tree's root)
  const extra = tool === "helm" && within ? valueFiles.flatMap((f) => ["-f", join(within, f)]) : [];
  const args = (dir: string) => [...r.args(dir), ...extra];
  const out = await runLocal(r.program, args(absDir), { timeoutMs });
  if (out.spawnError) return { missing: r.need };
  if (out.timedOut) return { error: `${r.program} did not finish within ${timeoutMs / 1000} s` };
  if (out.code === 0) return { text: out.stdout };
  const error = toolError(out.stderr) || `${r.program} exited ${out.code}`;
  if (tool === "helm" && within && /helm dependency build|missing in charts\/ directory/.test(error)) {
    const deps = localDependencies(absDir, within);
    if (deps) return renderWithDependencies(absDir, deps, timeoutMs, error, args);
  }
  if (tool === "helm" && RELEASE_VERSION.test(error)) return renderWithVersion(absDir, timeoutMs, error, args);
  const refused = tool === "kustomize" ? restrictorRefusal(error) : null;
  if (!refused || !within || !pathsInside(absDir, within)) return { error };
  const again = await runLocal(r.program, ["kustomize", "--load-restrictor", "LoadRestrictionsNone", absDir], {
    timeoutMs,
  });
  if (again.code !== 0) return { error };
  const file = relative(within, refused.file);
  const dir = relative(within, refused.root) || ".";
  return {
    text: again.stdout,
    note: {
      why: `kubectl kustomize ${dir} refuses ${file}: the file is outside the overlay's directory and kustomize's default load restrictor (LoadRestrictionsRootOnly) loads only files in or below it, so \`kubectl apply -k ${dir}\` fails the same way; checked as \`kubectl kustomize --load-restrictor LoadRestrictionsNone\` renders it`,
      fix: `make ${file}'s directory a base (a kustomization.yaml there listing it) and name that directory under resources: in ${dir}, or deploy the output of \`kubectl kustomize --load-restrictor LoadRestrictionsNone ${dir}\``,
    },
  };
}

/** helm refusing a Chart.yaml version a release tool fills in when it packages the chart (`[[ .Version ]]`) */
const RELEASE_VERSION = /chart\.metadata\.version "[^"]*(?:\[\[|\{\{|\$\{|%|<)[^"]*" is invalid/;

/** Such a chart rendered from a copy whose Chart.yaml says 0.0.0: what the release tool would package. */
async function renderWithVersion(
  absDir: string,
  timeoutMs: number,
  error: string,
  args: (dir: string) => string[],
): Promise<Rendered> {
  const copy = chartWithDependencies(absDir, []);
  try {
    const file = ["Chart.yaml", "Chart.yml"].map((f) => join(copy.dir, f)).find((f) => existsSync(f));
    if (!file) return { error };
    writeFileSync(file, readFileSync(file, "utf8").replace(/^version\s*:.*$/m, "version: 0.0.0"));
    const out = await runLocal("helm", args(copy.dir), { timeoutMs });
    return out.code === 0 ? { text: out.stdout } : { error };
  } finally {
    copy.done();
  }
}

/** A chart rendered with its `file://` dependencies in place (what `helm dependency build` would do, in a copy). */
async function renderWithDependencies(
  absDir: string,
  deps: readonly LocalDependency[],
  timeoutMs: number,
  error: string,
  args: (dir: string) => string[],
): Promise<Rendered> {
  const copy = chartWithDependencies(absDir, deps);
  try {
    const out = await runLocal("helm", args(copy.dir), { timeoutMs });
    if (out.code !== 0) return { error };
    return { text: sourcesInRepository(out.stdout, absDir, deps) };
  } finally {
    copy.done();
  }
}
