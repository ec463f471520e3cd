// A chart whose dependencies are charts of the same repository (`repository: file://../commonlib`) renders only
// after `helm dependency build` has put them in its charts/ directory, which a repository does not commit. Such a
// chart is rendered from a temporary copy with each of those charts placed in charts/ as a directory (helm reads an
// unpacked chart there as it reads a packed one), so the work tree is never written and no repository is fetched.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parse } from "yaml";

export interface LocalDependency {
  /** the name the chart depends on it by (its alias when one is given) */
  name: string;
  /** the dependency's directory */
  dir: string;
}

/**
 * The chart's dependencies missing from its charts/ directory, when every one is a `file://` chart inside `within`;
 * null when there is none, or one that only `helm dependency build` could bring (a chart repository, an OCI registry).
 */
export function localDependencies(chartDir: string, within: string): LocalDependency[] | null {
  let chart: { dependencies?: Array<{ name?: unknown; alias?: unknown; repository?: unknown }> };
  try {
    chart = (parse(readFileSync(join(chartDir, "Chart.yaml"), "utf8")) ?? {}) as typeof chart;
  } catch {
    return null;
  }
  const out: LocalDependency[] = [];
  for (const d of chart.dependencies ?? []) {
    if (typeof d.name !== "string") return null;
    if (existsSync(join(chartDir, "charts", d.name))) continue;
    const repo = typeof d.repository === "string" ? d.repository : "";
    if (!repo.startsWith("file://")) return null;
    const dir = resolve(chartDir, repo.slice("file://".length));
    const rel = relative(within, dir);
    if (rel.startsWith("..") || isAbsolute(rel) || !existsSync(join(dir, "Chart.yaml"))) return null;
    out.push({ name: typeof d.alias === "string" ? d.alias : d.name, dir });
  }
  return out.length ? out : null;
}

/** A copy of the chart with its local dependencies in charts/; `done()` removes it. */
export function chartWithDependencies(
  chartDir: string,
  deps: readonly LocalDependency[],
): { dir: string; done(): void } {
  const tmp = mkdtempSync(join(tmpdir(), "dg-chart-"));
  const dir = join(tmp, "chart");
  cpSync(chartDir, dir, { recursive: true });
  for (const d of deps) cpSync(d.dir, join(dir, "charts", d.name), { recursive: true });
  return { dir, done: () => rmSync(tmp, { recursive: true, force: true }) };
}

/**
 * Helm names a dependency's templates `chart/charts/<name>/templates/x.yaml`: rewritten to the path of the chart they
 * are in the repository (relative to the chart's directory), so each document is mapped to the file that wrote it.
 */
export function sourcesInRepository(text: string, chartDir: string, deps: readonly LocalDependency[]): string {
  let out = text;
  for (const d of deps) {
    const rel = relative(chartDir, d.dir).split("\\").join("/");
    const from = new RegExp(`^(# Source: [^/\\n]+/)charts/${d.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/`, "gm");
    out = out.replace(from, (_m, head: string) => `${head}${rel}/`);
  }
  return out;
}
