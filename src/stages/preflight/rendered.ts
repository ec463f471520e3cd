// Helm charts and kustomize overlays: rendered with their tool (at the work tree, or at a commit from a
// `git archive` of it, cached per commit), then each container that starts an engine is checked as a part of
// the template or manifest it came from, its lines mapped back to that file. A tool that is not on PATH is said
// once per chart, with what it would take, instead of a warning on every file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { warn, type Finding } from "../../domain/report/finding.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { renderManifests, type Rendered } from "../../ports/local/render.js";
import { runLocal } from "../../ports/local/run-local.js";
import type { PreflightContext, PreflightTarget, RenderSpec } from "./targets.js";
import { readAt, readLaunch } from "./read-launch.js";
import { placeParts, type PlacedPart } from "./rendered-lines.js";

const memo = new Map<string, Promise<Rendered>>();
const worktreeRenders = new WeakMap<object, Map<string, Promise<Rendered>>>();
const CACHE = join(tmpdir(), "deploy-gate-renders");

/** The render of `spec` at `ref` (the work tree when null). A commit's render is cached on disk by commit. */
export function renderAt(ctx: Pick<PreflightContext, "root">, spec: RenderSpec, ref: string | null): Promise<Rendered> {
  if (ref === null) {
    // the work tree once per run (the run's context object), never across runs: the files may change between them
    const mine = worktreeRenders.get(ctx) ?? new Map<string, Promise<Rendered>>();
    worktreeRenders.set(ctx, mine);
    const k = `${spec.tool}:${spec.dir}:${(spec.valueFiles ?? []).join("\0")}`;
    const opts = { within: ctx.root, valueFiles: spec.valueFiles ?? [] };
    if (!mine.has(k)) mine.set(k, renderManifests(spec.tool, join(ctx.root, spec.dir), opts));
    return mine.get(k)!;
  }
  const key = `${ref}-${spec.tool}-${createHash("sha256")
    .update(`${ctx.root}\0${spec.dir}\0${(spec.valueFiles ?? []).join("\0")}`)
    .digest("hex")
    .slice(0, 16)}`;
  let p = memo.get(key);
  if (!p) {
    p = renderCommit(ctx.root, spec, ref, join(CACHE, `${key}.yaml`));
    memo.set(key, p);
  }
  return p;
}

async function renderCommit(root: string, spec: RenderSpec, ref: string, cached: string): Promise<Rendered> {
  if (/^[0-9a-f]{40}$/.test(ref) && existsSync(cached)) return { text: readFileSync(cached, "utf8") };
  const tmp = mkdtempSync(join(tmpdir(), "dg-render-"));
  try {
    // the whole tree: an overlay reaches ../base, a chart its subcharts
    const tar = join(tmp, "tree.tar");
    let a = await runLocal("git", ["-C", root, "archive", "-o", tar, ref], { timeoutMs: 60_000 });
    // a partial clone (objects left out: a large file elsewhere in the tree) cannot archive the whole tree: the
    // chart's or overlay's own directory may still render
    if (a.code !== 0 && spec.dir !== ".")
      a = await runLocal("git", ["-C", root, "archive", "-o", tar, ref, "--", spec.dir], { timeoutMs: 60_000 });
    if (a.code !== 0) return { error: `git archive ${ref} failed: ${a.stderr.trim()}` };
    const tree = join(tmp, "tree");
    mkdirSync(tree);
    const x = await runLocal("tar", ["-xf", tar, "-C", tree], { timeoutMs: 60_000 });
    if (x.code !== 0) return { error: `tar could not unpack ${ref}: ${x.stderr.trim()}` };
    const r = await renderManifests(spec.tool, join(tree, spec.dir), {
      within: tree,
      valueFiles: spec.valueFiles ?? [],
    });
    if ("text" in r && /^[0-9a-f]{40}$/.test(ref)) {
      mkdirSync(dirname(cached), { recursive: true });
      writeFileSync(cached, r.text);
    }
    return r;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export type RenderedPart = PlacedPart;

/** The rendered engine parts, each with its lines mapped back to the file it came from. */
export async function renderedParts(
  ctx: Pick<PreflightContext, "root" | "reader">,
  spec: RenderSpec,
  ref: string | null,
): Promise<RenderedPart[] | { missing: string } | { error: string }> {
  const r = await renderAt(ctx, spec, ref);
  if (!("text" in r)) return r;
  const candidates = await Promise.all(
    (spec.sources ?? []).map(async (f) => ({
      file: f,
      text: (await readAt(ctx, f, ref)) ?? "",
      ...(spec.valueFiles?.includes(f) ? { values: true } : {}),
    })),
  );
  return placeParts(spec, r.text, candidates, (file) => readAt(ctx, file, ref));
}

/** A chart or overlay preflight cannot render: one finding, naming what it is and what it would take. */
export function unrendered(
  t: PreflightTarget,
  spec: RenderSpec,
  why: { missing: string } | { error: string },
): Finding {
  const what = spec.tool === "helm" ? "a Helm chart" : "a kustomize overlay";
  const unchecked = "its engine flags, contracts, dropped flags and trap rules are not checked";
  if ("missing" in why)
    return warn("preflight.traps", `${spec.dir} is ${what}: ${why.missing}; until then ${unchecked}`, {
      file: t.scriptPath,
      fix: why.missing,
      data: { render: spec.tool, rendered: false },
    });
  // a dependency (a library chart) the repository does not hold: helm fetches it, preflight does not reach out
  const deps = spec.tool === "helm" && /helm dependency build|missing in charts\/ directory/.test(why.error);
  return warn("preflight.traps", `${spec.dir} is ${what} that did not render: ${why.error}; ${unchecked}`, {
    file: t.scriptPath,
    fix: deps
      ? `run \`helm dependency build ${spec.dir}\` before preflight (it fetches the dependencies Chart.yaml names into ${spec.dir}/charts/), or commit them there`
      : `run \`${spec.tool === "helm" ? "helm template" : "kubectl kustomize"} ${spec.dir}\` and fix what it reports`,
    data: { render: spec.tool, rendered: false },
  });
}

/** `kubectl apply -k` of a directory of plain manifests fails (a key written twice): said once, the manifests read. */
function plainRefused(t: PreflightTarget, spec: RenderSpec, error: string): Finding {
  return warn(
    "preflight.traps",
    `${spec.dir}: \`kubectl kustomize ${spec.dir}\` fails, so \`kubectl apply -k ${spec.dir}\` would too: ${error}; its manifests are checked as written`,
    {
      file: t.scriptPath,
      fix: `run \`kubectl kustomize ${spec.dir}\` and fix what it reports`,
      data: { endpoint: t.name, render: spec.tool, rendered: false },
    },
  );
}

/**
 * A chart or overlay target becomes one target per rendered container that starts an engine, each named for the
 * template it came from; one that cannot be rendered becomes one finding.
 */
export async function expandRendered(
  ctx: PreflightContext,
  t: PreflightTarget,
): Promise<{ targets: PreflightTarget[]; findings: Finding[] }> {
  const spec = t.render!;
  const parts = await renderedParts(ctx, spec, ctx.ref);
  // a directory that only lists its manifests: they are read as written, exactly (a render would rewrite a flow
  // list's lines); the render only says whether `kubectl apply -k` takes the directory
  if (spec.plain)
    return {
      targets: [],
      findings: Array.isArray(parts) || "missing" in parts ? [] : [plainRefused(t, spec, parts.error)],
    };
  if (!Array.isArray(parts))
    return {
      targets: [],
      findings: [{ ...unrendered(t, spec, parts), data: { endpoint: t.name, render: spec.tool, rendered: false } }],
    };
  // rendered only with what the tool refuses by default (kustomize's load restrictor off): said plainly, once
  const r = await renderAt(ctx, spec, ctx.ref);
  const note = "text" in r ? r.note : undefined;
  return {
    targets: parts.map((p) => ({ ...t, kind: "kubernetes", scriptPath: p.file, part: p.part })),
    findings: note
      ? [
          warn("preflight.traps", note.why, {
            file: t.scriptPath,
            fix: note.fix,
            data: { endpoint: t.name, render: spec.tool, rendered: true, restricted: true },
          }),
        ]
      : [],
  };
}

/** The rendered part a target stands for, at a ref (the work tree when null); null when it is not there. */
export async function renderedScript(
  ctx: Pick<PreflightContext, "root" | "reader">,
  t: PreflightTarget,
  ref: string | null,
): Promise<ServeScript | null> {
  const parts = await renderedParts(ctx, t.render!, ref);
  return Array.isArray(parts) ? (parts.find((p) => p.part === t.part)?.script ?? null) : null;
}

/**
 * A manifest an overlay reads (from its own directory or a base) is checked once, as the overlay renders it: read
 * alone, a base's InferenceService would miss the ServingRuntime its args join. `rendered`: the overlays' targets.
 */
export function checkedAsRendered(t: PreflightTarget, rendered: readonly PreflightTarget[]): boolean {
  return (
    !t.render &&
    t.kind === "kubernetes" &&
    rendered.some((r) => r.render?.tool === "kustomize" && (r.render.sources ?? []).includes(t.scriptPath))
  );
}

/**
 * The two ends a rendered target's dropped flags are compared on: both renders; when the base did not render (a key
 * written twice then, fixed since) a kustomize part's own file as written at both ends, which is what the commit
 * changed. `unrendered`: the base did not render and there is nothing to compare (a chart's template is no manifest
 * as written); `newPart`: the base rendered without this container.
 */
export async function dropEnds(
  ctx: Pick<PreflightContext, "root" | "reader" | "ref">,
  t: PreflightTarget,
  baseSha: string,
  baseText: string,
  now: ServeScript,
): Promise<{ base: ServeScript; now: ServeScript; asWritten: boolean } | "unrendered" | "newPart"> {
  const parts = await renderedParts(ctx, t.render!, baseSha);
  if (Array.isArray(parts)) {
    const part = parts.find((p) => p.part === t.part);
    return part ? { base: part.script, now, asWritten: false } : "newPart";
  }
  if (t.render!.tool !== "kustomize") return "unrendered";
  const { render: _rendered, ...raw } = t;
  const base = await readLaunch(ctx, raw, baseText, baseSha);
  const nowText = await readAt(ctx, t.scriptPath, ctx.ref);
  if (!base.engine || nowText === null) return "unrendered";
  return { base, now: await readLaunch(ctx, raw, nowText, ctx.ref), asWritten: true };
}
