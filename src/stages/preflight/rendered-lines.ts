// Where each flag of a rendered chart or overlay was written: every rendered document is mapped back to the file it
// came from (Helm's `# Source:` line; for kustomize the file sharing the most lines), its lines aligned with that
// file's; a flag no line of it writes is put on the helper, values or patch line that does. The whole render is
// parsed at once, so a KServe InferenceService's args join the ServingRuntime they name, each flag on its own file.
import { posix } from "node:path";
import { parseLaunchParts } from "../../domain/launch/launch.js";
import type { Flag, ServeScript } from "../../domain/launch/model.js";
import { remapLines } from "../../domain/launch/remap-lines.js";
import { alignTemplate, bestLine, plainLine, type TemplateAlignment } from "../../domain/launch/template-align.js";
import { listsWithin, listAround, siblingValues } from "../../domain/launch/values-list.js";
import type { RenderSpec } from "./targets.js";
import { block, isValuesFile, probeFromValues, probeInPatch, type Candidate } from "./probe-lines.js";

export interface PlacedPart {
  /** the template or manifest the container came from (the chart or overlay directory when unknown) */
  file: string;
  part: string;
  script: ServeScript;
}

/** One rendered document and where it came from: its file, that file's text, its lines aligned with them. */
interface DocSource {
  first: number;
  count: number;
  file: string;
  named: boolean;
  source: string | null;
  align: TemplateAlignment | null;
}

/**
 * The engine parts of a render, lines mapped back to their files. `read` gives a file's text at the ref rendered;
 * `candidates` are the spec's sources (kustomize's manifests and patches, a chart's helpers and values).
 */
export async function placeParts(
  spec: RenderSpec,
  text: string,
  candidates: readonly Candidate[],
  read: (file: string) => Promise<string | null>,
): Promise<PlacedPart[]> {
  const all = text.split("\n");
  const docs: DocSource[] = [];
  for (const doc of documents(text)) {
    const named = sourceOf(spec, doc.text);
    const best = named ? null : closest(doc.text, candidates, new Set(spec.patches ?? []));
    const source = named ? await read(named) : (best?.text ?? null);
    const lines = doc.text.split("\n");
    docs.push({
      first: doc.first,
      count: lines.length,
      file: named ?? best?.file ?? spec.dir,
      named: named !== null,
      source,
      align: source === null ? null : alignTemplate(lines, source.split("\n")),
    });
  }
  const docAt = (line: number) => docs.findIndex((d) => line >= d.first && line < d.first + d.count);
  const out: PlacedPart[] = [];
  // values lists an earlier part of this render was placed on
  const claimed = new Map<string, Set<number>>();
  for (const p of parseLaunchParts("kubernetes", text)) {
    const engine = p.script.engine;
    const at = engine ? docAt(engine.line) : -1;
    if (!engine || at < 0) continue;
    const d = docs[at]!;
    const local = (line: number) => line - d.first + 1;
    const flags = engine.flags;
    const written = flags.map((f) => all[f.line - 1]?.trim() ?? "");
    if (d.source === null || d.align === null) {
      // a template helm names but the repository holds only packed (a dependency's .tgz under charts/): a flag a
      // values list writes is still put on its values line
      const values = d.named ? candidates.filter(isValuesFile) : [];
      const at =
        values.length && flags.length ? valuesStarts(all, docText(all, d), flags[0]!.line, values, claimed) : null;
      remapLines(p.script, local);
      if (at?.size)
        inHelpers(
          flags,
          written,
          flags.map(() => true),
          values,
          at,
        );
      out.push({ file: d.file, part: p.name, script: p.script });
      continue;
    }
    const rendered = flags.map((f) => f.line);
    // a flag of another document (an InferenceService's args KServe appends to its runtime's): placed by that one
    const theirs = flags.map((f) => {
      const i = docAt(f.line);
      return i >= 0 && i !== at ? { doc: docs[i]!, line: f.line - docs[i]!.first + 1 } : null;
    });
    const align = d.align;
    // a flag its template line does not write (`{{ range .Values.args }} {{ . }}{{ end }}` in a one-line sh -c
    // string) came from the values or a helper as much as one on a line of its own
    const srcLines = d.source.split("\n");
    const unwritten = (f: Flag) => !holdsWord(srcLines[align.line(local(f.line)) - 1] ?? "", f.name);
    const elsewhere: boolean[] = flags.map(
      (f, i) => theirs[i] === null && (!align.matched(local(f.line)) || (d.named && unwritten(f))),
    );
    const probes = (engine.podmanRun?.workload?.probes ?? []).map((x) => ({
      probe: x,
      text: all[x.line - 1]?.trim() ?? "",
      block: block(all, x.line - 1),
      helper: d.named && !align.matched(local(x.line)),
    }));
    remapLines(p.script, (line) => align.line(local(line)));
    // a flag its aligned template line does not write, written by another line of the same template (`- {{ printf
    // "--x=%s" .x | quote }}` aligned with the `--y={{ .y }}` above it): the nearest such line
    if (d.named)
      flags.forEach((f, i) => {
        if (!elsewhere[i] || theirs[i]) return;
        const near = nearestHolding(srcLines, f.name, f.line);
        if (near > 0) [f.line, elsewhere[i]] = [near, false];
      });
    // a probe an `include`d helper writes (`{{- include "chart.probes" . }}`) is put at the helper's line, and at
    // the values.yaml key when the helper copies it from there
    for (const x of probes) {
      if (!x.helper) continue;
      inHelper(x.probe, x.text, candidates);
      const helper = candidates.find((c) => c.file === x.probe.file);
      if (helper) probeFromValues(x.probe, helper.text, candidates);
    }
    // a kustomize patch that writes the probe's settings is where they come from (a patch overrides the base)
    if (!d.named) for (const x of probes) probeInPatch(x.probe, x.block, d.source, candidates, spec.patches ?? []);
    // a chart's `livenessProbe: {{- toYaml .Values.livenessProbe }}`: the budget is set in values.yaml
    else for (const x of probes) if (!x.helper) probeFromValues(x.probe, d.source, candidates);
    p.script = { ...p.script, text: d.source, lines: d.source.split("\n") };
    const own = flags.map((f, i) => (theirs[i] ? null : f));
    // kubectl kustomize writes a container's keys in alphabetical order (`args` before `command`): an alignment in
    // order keeps one of the two, so a flag line it left out is looked for by its text
    if (!d.named) byText(own, written, elsewhere, d.source);
    if (!d.named) inPatches(own, written, d.source, candidates, spec.patches ?? []);
    else {
      const first = own.findIndex((f, i) => f !== null && elsewhere[i]);
      inHelpers(
        own,
        written,
        elsewhere,
        candidates,
        first < 0 ? undefined : valuesStarts(all, docText(all, d), rendered[first]!, candidates, claimed),
      );
    }
    // (a flag the other template copies from values, `{{- toYaml .Values.model.runtime.args }}`: at the values line)
    const fromValues = flags.map(() => false);
    flags.forEach((f, i) => {
      const t = theirs[i];
      if (!t) return;
      f.line = t.doc.align ? t.doc.align.line(t.line) : t.line;
      if (t.doc.source !== null && !t.doc.named)
        inPatches([f], [written[i]!], t.doc.source, candidates, spec.patches ?? []);
      else if (t.doc.source !== null) fromValues[i] = !holdsWord(t.doc.source.split("\n")[f.line - 1] ?? "", f.name);
      if (!fromValues[i]) f.file ??= t.doc.file;
    });
    if (fromValues.some(Boolean)) {
      inHelpers(
        flags.map((f, i) => (fromValues[i] ? f : null)),
        written,
        fromValues,
        candidates,
      );
      flags.forEach((f, i) => {
        if (fromValues[i]) f.file ??= theirs[i]!.doc.file;
      });
    }
    out.push({ file: d.file, part: p.name, script: p.script });
  }
  return out;
}

/**
 * Where a part's args list is in each values file: the longest list whose items the rendered list (the one holding
 * the line `at`) holds in a run; of identical lists (two range entries alike), the one whose entry's other values the
 * document holds, then the first no earlier part of the render took.
 */
function valuesStarts(
  all: readonly string[],
  doc: string,
  at: number,
  candidates: readonly Candidate[],
  claimed: Map<string, Set<number>>,
): Map<string, number> {
  const out = new Map<string, number>();
  const list = listAround(all, at - 1);
  if (!list) return out;
  for (const c of candidates) {
    if (!isValuesFile(c)) continue;
    const within = listsWithin(c.text, list.items);
    if (!within.length) continue;
    const taken = claimed.get(c.file) ?? new Set<number>();
    const longest = listAround(c.text.split("\n"), within[0]!)!.items.length;
    const starts = within.filter((s) => listAround(c.text.split("\n"), s)!.items.length === longest);
    // of identical lists, the one whose entry's other values (model, lengths) the rendered document holds
    const score = (s: number) => siblingValues(c.text, s).filter((v) => doc.includes(v)).length;
    const best = Math.max(...starts.map(score));
    const fits = starts.filter((s) => score(s) === best);
    const start = fits.find((s) => !taken.has(s)) ?? fits[0]!;
    claimed.set(c.file, taken.add(start));
    out.set(c.file, start);
  }
  return out;
}

const docText = (all: readonly string[], d: DocSource) => all.slice(d.first - 1, d.first - 1 + d.count).join("\n");

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

/**
 * helm: a flag written in no line of its named template came from an `include`d helper or a values list: it is put at
 * the helper or values line that writes it, in order (a values line's list dash and quotes may differ in the render).
 */
function inHelpers(
  flags: ReadonlyArray<Flag | null>,
  written: readonly string[],
  elsewhere: readonly boolean[],
  candidates: readonly Candidate[],
  starts?: ReadonlyMap<string, number>,
): void {
  const order = [...candidates].sort((a, b) => Number(/\.tpl$/.test(b.file)) - Number(/\.tpl$/.test(a.file)));
  const cursors = new Map<string, number>(starts);
  const bare = (l: string) => plainLine(l).replace(/^- /, "");
  flags.forEach((f, i) => {
    if (!f || !elsewhere[i] || !written[i]) return;
    for (const c of order) {
      const lines = c.text.split("\n");
      // (a values list chosen for this part: from its start, else from the top as for any other file)
      const chosen = cursors.get(c.file) ?? 0;
      const from = chosen > 0 && !lines.slice(chosen).some((l) => holdsWord(l, f.name)) ? 0 : chosen;
      let at = bestLine(written[i]!, lines, from);
      let next = at + 1;
      if (at < 0 && isValuesFile(c)) {
        const want = bare(written[i]!);
        at = lines.findIndex((l, j) => j >= from && /^\s*-\s/.test(l) && bare(l) === want);
        next = at + 1;
        // a long value toYaml folds over lines of its own (a `sh -c` string): the values line holding the flag word;
        // the next flag may be on the same line
        if (at < 0) next = at = lines.findIndex((l, j) => j >= from && !/^\s*#/.test(l) && holdsWord(l, f.name));
      }
      if (at < 0) continue;
      cursors.set(c.file, next);
      f.file = c.file;
      f.line = at + 1;
      return;
    }
  });
}

/** The first .tpl line that writes `text` (a rendered line no line of its template writes): `at` is moved there. */
function inHelper(at: { file?: string; line: number }, text: string, candidates: readonly Candidate[]): void {
  if (!text) return;
  for (const c of candidates) {
    if (!/\.tpl$/.test(c.file)) continue;
    const i = bestLine(text, c.text.split("\n"));
    if (i < 0) continue;
    at.file = c.file;
    at.line = i + 1;
    return;
  }
}

/**
 * kustomize: a flag whose line is not in the file most of the document came from (the base) was written by a
 * patch: it is put at the first line with its text in another of the overlay's files, in order. A flag whose text
 * a patch file holds is the patch's even when the base has the same line: a patch that sets a list replaces it.
 */
function inPatches(
  flags: ReadonlyArray<Flag | null>,
  written: readonly string[],
  source: string,
  candidates: readonly { file: string; text: string }[],
  patches: readonly string[],
): void {
  const own = new Set(source.split("\n").map(plainLine));
  const patchText = candidates.filter((c) => patches.includes(c.file)).flatMap((c) => c.text.split("\n"));
  const inPatch = new Set(patchText.map(plainLine));
  // a list a patch writes in flow style (`value: ["--model=$(MODEL)", "--port=8000"]`): each item is on that line
  const flow = flowItems(candidates.filter((c) => patches.includes(c.file)));
  // the document matched a patch best: what it holds stays there
  const sourceIsPatch = candidates.some((c) => c.text === source && patches.includes(c.file));
  const cursors = new Map<string, number>();
  flags.forEach((f, i) => {
    const want = plainLine(written[i]!);
    const item = flow.get(want.replace(/^- /, ""));
    if (f && want && !f.file && item && !sourceIsPatch) [f.file, f.line] = [item.file, item.line];
    if (!f || !want || f.file || (own.has(want) && (sourceIsPatch || !inPatch.has(want)))) return;
    // the patches first: a line both a patch and another resource hold is the patch's
    const order = [...candidates].sort((a, b) => Number(patches.includes(b.file)) - Number(patches.includes(a.file)));
    for (const c of order) {
      if (c.text === source) continue;
      const lines = c.text.split("\n");
      const from = cursors.get(c.file) ?? 0;
      const at = lines.findIndex((l, j) => j >= from && plainLine(l) === want);
      if (at < 0) continue;
      cursors.set(c.file, at + 1);
      f.file = c.file;
      f.line = at + 1;
      return;
    }
  });
}

/** The items of flow-style lists (`key: [a, "b"]`) in patch files, each with its file and line (the first wins). */
function flowItems(files: readonly Candidate[]): Map<string, { file: string; line: number }> {
  const out = new Map<string, { file: string; line: number }>();
  for (const c of files)
    c.text.split("\n").forEach((l, i) => {
      const list = /^\s*(?:-\s*)?[\w.-]+:\s*\[(.*)\]\s*$/.exec(l)?.[1];
      for (const m of list?.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([^,\s][^,]*?)\s*(?=,|$)/g) ?? []) {
        const item = (m[1] ?? m[2] ?? m[3] ?? "").trim();
        if (item && !out.has(item)) out.set(item, { file: c.file, line: i + 1 });
      }
    });
  return out;
}

/** Flags the alignment left out, put at the first line of `source` (in order) with their very text. */
function byText(
  flags: ReadonlyArray<Flag | null>,
  written: readonly string[],
  unmatched: readonly boolean[],
  source: string,
): void {
  const lines = source.split("\n").map(plainLine);
  let from = 0;
  flags.forEach((f, i) => {
    if (!f || !unmatched[i] || !written[i]) return;
    const at = lines.indexOf(plainLine(written[i]!), from);
    if (at < 0) return;
    f.line = at + 1;
    from = at + 1;
  });
}

/** The candidate file sharing the most lines with a rendered document (kustomize's output names no source). */
function closest(doc: string, candidates: readonly { file: string; text: string }[], patches: ReadonlySet<string>) {
  const want = new Set(
    doc
      .split("\n")
      .map((l) => l.trim().replace(/^- /, ""))
      .filter((l) => l.length > 3),
  );
  // kustomize knows a resource by its kind and name: a file that declares the same one is where it came from, before
  // a sibling copied from it (a second InferenceService made from the first shares nearly all its lines)
  const id = identity(doc);
  let best: { file: string; text: string } | null = null;
  let score = 0;
  for (const c of candidates) {
    // (a patch names the resource it changes too: the file that declares it is the one it came from)
    const same = id !== null && !patches.has(c.file) && c.text.split(/^---\s*$/m).some((d) => identity(d) === id);
    const n = c.text.split("\n").filter((l) => want.has(l.trim().replace(/^- /, ""))).length + (same ? 1e6 : 0);
    if (n > score) [best, score] = [c, n];
  }
  return best;
}

/** `Kind/name` of a YAML document (its top-level kind and metadata.name), or null. */
function identity(doc: string): string | null {
  const kind = /^kind:\s*["']?([\w.-]+)/m.exec(doc)?.[1];
  const name = /^metadata:\s*\n(?:[ \t]+.*\n|\s*\n)*?[ \t]+name:\s*["']?([\w.-]+)/m.exec(doc)?.[1];
  return kind && name ? `${kind}/${name}` : null;
}

/** The 1-based line of `lines` nearest `line` that holds the flag as a word (not a comment), or 0. */
function nearestHolding(lines: readonly string[], flag: string, line: number): number {
  let best = 0;
  lines.forEach((l, i) => {
    if (/^\s*#/.test(l) || !holdsWord(l, flag)) return;
    if (!best || Math.abs(i + 1 - line) < Math.abs(best - line)) best = i + 1;
  });
  return best;
}

/** The line holds the flag as a word of its own (`--x`, `--x=1`, `"--x"`), not inside another word. */
function holdsWord(line: string, flag: string): boolean {
  for (let at = line.indexOf(flag); at >= 0; at = line.indexOf(flag, at + 1)) {
    const before = at === 0 ? " " : line[at - 1]!;
    const after = line[at + flag.length] ?? " ";
    if (/[\s"'[,]/.test(before) && /[\s"'\],=]/.test(after)) return true;
  }
  return false;
}
