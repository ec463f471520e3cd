// Helm charts and kustomize overlays: rendered with their tool (at the work tree, or at a commit from a
// `git archive` of it, cached per commit), then each container that starts an engine is checked as a part of
// the template or manifest it came from, its lines mapped back to that file. A tool that is not on PATH is said
// once per chart, with what it would take, instead of a warning on every file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { warn, type Finding } from "../../domain/report/finding.js";
import { parseLaunchParts } from "../../domain/launch/launch.js";
import { alignTemplate, bestLine } from "../../domain/launch/template-align.js";
import type { Flag, ServeScript } from "../../domain/launch/model.js";
import { renderManifests, type Rendered } from "../../ports/local/render.js";
import { runLocal } from "../../ports/local/run-local.js";
import type { PreflightContext, PreflightTarget, RenderSpec } from "./targets.js";
import { readAt } from "./read-launch.js";

const memo = new Map<string, Promise<Rendered>>();
const worktreeRenders = new WeakMap<object, Map<string, Promise<Rendered>>>();
const CACHE = join(tmpdir(), "deploy-gate-renders");

/** The render of `spec` at `ref` (the work tree when null). A commit's render is cached on disk by commit. */
export function renderAt(ctx: Pick<PreflightContext, "root">, spec: RenderSpec, ref: string | null): Promise<Rendered> {
  if (ref === null) {
    // the work tree once per run (the run's context object), never across runs: the files may change between them
    const mine = worktreeRenders.get(ctx) ?? new Map<string, Promise<Rendered>>();
    worktreeRenders.set(ctx, mine);
    const k = `${spec.tool}:${spec.dir}`;
    if (!mine.has(k)) mine.set(k, renderManifests(spec.tool, join(ctx.root, spec.dir), { within: ctx.root }));
    return mine.get(k)!;
  }
  const key = `${ref}-${spec.tool}-${createHash("sha256").update(`${ctx.root}\0${spec.dir}`).digest("hex").slice(0, 16)}`;
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
    const a = await runLocal("git", ["-C", root, "archive", "-o", tar, ref], { timeoutMs: 60_000 });
    if (a.code !== 0) return { error: `git archive ${ref} failed: ${a.stderr.trim()}` };
    const tree = join(tmp, "tree");
    mkdirSync(tree);
    const x = await runLocal("tar", ["-xf", tar, "-C", tree], { timeoutMs: 60_000 });
    if (x.code !== 0) return { error: `tar could not unpack ${ref}: ${x.stderr.trim()}` };
    const r = await renderManifests(spec.tool, join(tree, spec.dir), { within: tree });
    if ("text" in r && /^[0-9a-f]{40}$/.test(ref)) {
      mkdirSync(dirname(cached), { recursive: true });
      writeFileSync(cached, r.text);
    }
    return r;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The repository file a rendered document came from: Helm's `# Source: chart/templates/x.yaml` comment. */
function sourceOf(spec: RenderSpec, doc: string): string | null {
  const m = /^# Source: [^/\n]+\/(.+)$/m.exec(doc);
  return m ? posix.join(spec.dir, m[1]!) : null;
}

/** The rendered documents with the line each starts on. */
function documents(text: string): { text: string; first: number }[] {
  const out: { text: string; first: number }[] = [];
  const lines = text.split("\n");
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i === lines.length || /^---\s*$/.test(lines[i]!)) {
      if (i > start) out.push({ text: lines.slice(start, i).join("\n"), first: start + 1 });
      start = i + 1;
    }
  }
  return out;
}

/** Every `line`/`endLine` of the model remapped (the model is plain data; a pipeline's pipeTo is visited once). */
function remap(script: ServeScript, to: (line: number) => number): void {
  const seen = new WeakSet<object>();
  const visit = (v: unknown) => {
    if (!v || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) {
      if ((k === "line" || k === "endLine") && typeof x === "number") o[k] = to(x);
      else if (k !== "lines" && k !== "text") visit(x);
    }
  };
  visit(script.engine);
  visit(script.podmanRuns);
}

export interface RenderedPart {
  /** the template or manifest the container came from (the chart or overlay directory when unknown) */
  file: string;
  part: string;
  script: ServeScript;
}

/** The rendered engine parts, each with its lines mapped back to the file it came from. */
export async function renderedParts(
  ctx: Pick<PreflightContext, "root" | "reader">,
  spec: RenderSpec,
  ref: string | null,
): Promise<RenderedPart[] | { missing: string } | { error: string }> {
  const r = await renderAt(ctx, spec, ref);
  if (!("text" in r)) return r;
  const out: RenderedPart[] = [];
  const candidates = await Promise.all(
    (spec.sources ?? []).map(async (f) => ({ file: f, text: (await readAt(ctx, f, ref)) ?? "" })),
  );
  for (const doc of documents(r.text)) {
    const named = sourceOf(spec, doc.text);
    const best = named ? null : closest(doc.text, candidates);
    const file = named ?? best?.file ?? spec.dir;
    const source = named ? await readAt(ctx, named, ref) : (best?.text ?? null);
    for (const p of parseLaunchParts("kubernetes", doc.text)) {
      if (!p.script.engine) continue;
      if (source !== null) {
        const docLines = doc.text.split("\n");
        const written = p.script.engine.flags.map((f) => docLines[f.line - 1]?.trim() ?? "");
        const align = alignTemplate(docLines, source.split("\n"));
        const elsewhere = p.script.engine.flags.map((f) => !align.matched(f.line));
        remap(p.script, align.line);
        p.script = { ...p.script, text: source, lines: source.split("\n") };
        if (!named) inPatches(p.script.engine!.flags, written, source, candidates, spec.patches ?? []);
        else inHelpers(p.script.engine!.flags, written, elsewhere, candidates);
      }
      out.push({ file, part: p.name, script: p.script });
    }
  }
  return out;
}

/**
 * helm: a flag written in no line of its named template came from an `include`d helper or a values list: it is put at
 * the helper or values line that writes it, in order (a values line's list dash and quotes may differ in the render).
 */
function inHelpers(
  flags: Flag[],
  written: readonly string[],
  elsewhere: readonly boolean[],
  candidates: readonly { file: string; text: string }[],
): void {
  const order = [...candidates].sort((a, b) => Number(/\.tpl$/.test(b.file)) - Number(/\.tpl$/.test(a.file)));
  const cursors = new Map<string, number>();
  const bare = (l: string) =>
    l
      .trim()
      .replace(/^-\s*/, "")
      .replace(/^(["'])(.*)\1$/, "$2");
  flags.forEach((f, i) => {
    if (!elsewhere[i] || !written[i]) return;
    for (const c of order) {
      const lines = c.text.split("\n");
      const from = cursors.get(c.file) ?? 0;
      let at = bestLine(written[i]!, lines, from);
      if (at < 0 && /(^|\/)values\.ya?ml$/.test(c.file)) {
        const want = bare(written[i]!);
        at = lines.findIndex((l, j) => j >= from && /^\s*-\s/.test(l) && bare(l) === want);
      }
      if (at < 0) continue;
      cursors.set(c.file, at + 1);
      f.file = c.file;
      f.line = at + 1;
      return;
    }
  });
}

/**
 * kustomize: a flag whose line is not in the file most of the document came from (the base) was written by a
 * patch: it is put at the first line with its text in another of the overlay's files, in order. A flag whose text
 * a patch file holds is the patch's even when the base has the same line: a patch that sets a list replaces it.
 */
function inPatches(
  flags: Flag[],
  written: readonly string[],
  source: string,
  candidates: readonly { file: string; text: string }[],
  patches: readonly string[],
): void {
  const own = new Set(source.split("\n").map((l) => l.trim()));
  const patchText = candidates.filter((c) => patches.includes(c.file)).flatMap((c) => c.text.split("\n"));
  const inPatch = new Set(patchText.map((l) => l.trim()));
  // the document matched a patch best: what it holds stays there
  const sourceIsPatch = candidates.some((c) => c.text === source && patches.includes(c.file));
  const cursors = new Map<string, number>();
  flags.forEach((f, i) => {
    const want = written[i]!;
    if (!want || f.file || (own.has(want) && (sourceIsPatch || !inPatch.has(want)))) return;
    // the patches first: a line both a patch and another resource hold is the patch's
    const order = [...candidates].sort((a, b) => Number(patches.includes(b.file)) - Number(patches.includes(a.file)));
    for (const c of order) {
      if (c.text === source) continue;
      const lines = c.text.split("\n");
      const from = cursors.get(c.file) ?? 0;
      const at = lines.findIndex((l, j) => j >= from && l.trim() === want);
      if (at < 0) continue;
      cursors.set(c.file, at + 1);
      f.file = c.file;
      f.line = at + 1;
      return;
    }
  });
}

/** The candidate file sharing the most lines with a rendered document (kustomize's output names no source). */
function closest(doc: string, candidates: readonly { file: string; text: string }[]) {
  const want = new Set(
    doc
      .split("\n")
      .map((l) => l.trim().replace(/^- /, ""))
      .filter((l) => l.length > 3),
  );
  let best: { file: string; text: string } | null = null;
  let score = 0;
  for (const c of candidates) {
    const n = c.text.split("\n").filter((l) => want.has(l.trim().replace(/^- /, ""))).length;
    if (n > score) [best, score] = [c, n];
  }
  return best;
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
  return warn("preflight.traps", `${spec.dir} is ${what} that did not render: ${why.error}; ${unchecked}`, {
    file: t.scriptPath,
    fix: `run \`${spec.tool === "helm" ? "helm template" : "kubectl kustomize"} ${spec.dir}\` and fix what it reports`,
    data: { render: spec.tool, rendered: false },
  });
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
