// Where a rendered container's probe is set, when not on its template's own line: the kustomize patch that rewrote
// it, or the values.yaml key a chart's template copies it from (`{{- toYaml .Values.livenessProbe | nindent 12 }}`,
// the `helm create` scaffold's form): the line a user edits to give the engine its boot budget.

/** A file the render's lines may come from, with its text. */
/** `values`: a value file (a chart's values.yaml, or one a deployment applies on top of it) */
export type Candidate = { file: string; text: string; values?: boolean };

/** A chart's values.yaml, or a value file applied on top of it. */
export const isValuesFile = (c: Candidate) => c.values ?? /(^|\/)values\.ya?ml$/.test(c.file);

/** A key's line and the lines indented under it (trimmed). */
export function block(lines: readonly string[], at: number): string[] {
  const indent = (l: string) => l.length - l.trimStart().length;
  const out = [lines[at]!.trim()];
  for (let i = at + 1; i < lines.length && (!lines[i]!.trim() || indent(lines[i]!) > indent(lines[at]!)); i++)
    if (lines[i]!.trim()) out.push(lines[i]!.trim());
  return out;
}

/** The probe goes to a patch whose block for it is all in the render and sets something the base's does not. */
export function probeInPatch(
  probe: { line: number; file?: string },
  rendered: readonly string[],
  source: string,
  candidates: readonly Candidate[],
  patches: readonly string[],
): void {
  const baseLines = source.split("\n");
  const base = baseLines[probe.line - 1]?.trim() === rendered[0] ? block(baseLines, probe.line - 1) : [];
  for (const c of candidates) {
    if (!patches.includes(c.file) || c.text === source) continue;
    const lines = c.text.split("\n");
    const at = lines.findIndex((l, i) => {
      if (l.trim() !== rendered[0]) return false;
      // its settings (`key: value` lines; flow maps are written out in the render, parent keys are structure)
      const mine = block(lines, i).filter((x) => /^[\w-]+:\s*[^\s{[]/.test(x));
      return mine.length > 0 && mine.every((x) => rendered.includes(x)) && mine.some((x) => !base.includes(x));
    });
    if (at < 0) continue;
    [probe.file, probe.line] = [c.file, at + 1];
    return;
  }
}

/** The template's (or helper's) probe key copies `.Values.<path>` (`{{- with .Values.x }}` around or under it, then
 *  `{{- toYaml . }}`, or `{{- toYaml .Values.x }}`): the probe is put at that key's line in the chart's values.yaml. */
export function probeFromValues(
  probe: { line: number; file?: string },
  template: string,
  candidates: readonly Candidate[],
): void {
  const lines = template.split("\n");
  const at = probe.line - 1;
  const after = lines.slice(at + 1, at + 3).join("\n");
  const before = lines.slice(Math.max(0, at - 2), at).join("\n");
  const path =
    /toYaml\s+\.Values\.([\w.]+)/.exec(after)?.[1] ??
    (/toYaml\s+\.\s/.test(after + " ")
      ? (/with\s+\.Values\.([\w.]+)/.exec(before)?.[1] ??
        /with\s+\.Values\.([\w.]+)[^\n]*\n[^\n]*toYaml/.exec(after)?.[1])
      : undefined);
  if (!path) return;
  const values = candidates.find(isValuesFile);
  const line = values ? keyLine(values.text, path.split(".")) : -1;
  if (line > 0) [probe.file, probe.line] = [values!.file, line];
}

/** The 1-based line of a nested key (`a.b.c`) in a block-style YAML text, or -1. */
export function keyLine(text: string, path: readonly string[]): number {
  const lines = text.split("\n");
  let from = 0;
  let indent = -1;
  for (const key of path) {
    const i = lines.findIndex((l, j) => {
      if (j < from) return false;
      const m = /^(\s*)([\w-]+)\s*:/.exec(l);
      // (the first key is a top-level one)
      return !!m && m[2] === key && (indent < 0 ? m[1]!.length === 0 : m[1]!.length > indent);
    });
    if (i < 0) return -1;
    indent = lines[i]!.length - lines[i]!.trimStart().length;
    from = i + 1;
  }
  return from;
}
