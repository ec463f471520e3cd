// An Argo CD Application that deploys a chart of the repository with value files of its own (`spec.source.path` a
// chart directory, `spec.source.helm.valueFiles` relative to it): what the cluster runs is the chart rendered with
// those files, so a flag deleted from one of them leaves the engine's argv. Pure.
import { posix } from "node:path";
import { readYaml } from "./yaml-node.js";

export interface AppliedChart {
  /** the Application's file, relative to the repository root */
  file: string;
  /** metadata.name */
  name: string;
  /** the chart's directory, relative to the repository root */
  chartDir: string;
  /** the value files in the order helm applies them (`-f` each), relative to the repository root */
  valueFiles: string[];
}

const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A repository path Argo CD would read: relative, no templating, inside the repository. */
function repoPath(p: string): string | null {
  if (/^\/|:\/\/|\{\{|\$/.test(p)) return null;
  const n = posix.normalize(p).replace(/\/+$/, "");
  return n.startsWith("../") || n === ".." ? null : n || ".";
}

/**
 * The charts an Argo CD Application file deploys with value files (each source of `spec.sources` too); a source
 * with no value files is the chart's own render, which preflight checks as the chart. A `$ref/` value file (another
 * source's repository) is no file here: such a source is left out.
 */
export function appliedCharts(file: string, text: string): AppliedChart[] {
  if (!/argoproj\.io/.test(text) || !/^kind:\s*Application\s*$/m.test(text)) return [];
  const y = readYaml(text);
  if (!y) return [];
  const out: AppliedChart[] = [];
  for (const doc of y.docs) {
    const d = record(doc.toJS());
    if (!d || d.kind !== "Application" || !/^argoproj\.io\//.test(String(d.apiVersion))) continue;
    const spec = record(d.spec);
    const name = String(record(d.metadata)?.name ?? posix.basename(posix.dirname(file)));
    const sources = [spec?.source, ...(Array.isArray(spec?.sources) ? spec.sources : [])];
    for (const s of sources.map(record)) {
      const path = typeof s?.path === "string" ? repoPath(s.path) : null;
      const files = record(s?.helm)?.valueFiles;
      if (!path || !Array.isArray(files) || !files.length) continue;
      const valueFiles = files.map((f) => (typeof f === "string" ? repoPath(posix.join(path, f)) : null));
      if (valueFiles.some((f) => f === null)) continue;
      out.push({ file, name, chartDir: path, valueFiles: valueFiles as string[] });
    }
  }
  return out;
}
