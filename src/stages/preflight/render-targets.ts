// Helm charts and kustomize overlays found in a repository: each is a target rendered before it is checked (its
// manifests are no launch files of their own until then), with the files whose lines the render is made of.
import { readFileSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { kustomizeResources } from "../../domain/launch/kustomization.js";
import type { PreflightTarget } from "./targets.js";

export const ENGINE = /vllm|sglang|llama[._-]?cpp|llama-server/i;

/**
 * A chart's templates or values that start an engine: its command, its module, or an engine image. A value that
 * only names one (a benchmark's `server: {type: vllm}`, a metric name) starts nothing.
 */
const LAUNCHES_ENGINE =
  /\bvllm\s+serve\b|vllm\.entrypoints\.|sglang\.launch_server|\bsglang\s+serve\b|llama-server\b|^\s*(-\s*)?(image|repository)\s*:\s*["']?\S*(vllm|sglang|llama[._-]?cpp)/im;

const INLINE_PATCH = /^\s*-?\s*patch\s*:\s*[|>]/m;

/** A chart's own files: its templates, values and Chart.yaml (a chart at the root is "."). */
export function inChart(file: string, dir: string): boolean {
  const rel = dir === "." ? file : file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : null;
  return rel !== null && /^(templates\/|charts\/|values[^/]*\.ya?ml$|Chart\.ya?ml$)/.test(rel);
}

/**
 * Helm charts (a Chart.yaml) whose templates or values name an engine, and kustomize overlays (a kustomization
 * that patches or reaches resources outside its own directory) that do: each is rendered before it is checked.
 */
export function renderTargets(root: string, files: readonly string[]): PreflightTarget[] {
  const out: PreflightTarget[] = [];
  // a kustomization another one takes as a resource (`- ../../../components/amd`, a base) is a layer of that overlay,
  // which renders it: the overlays are what is applied
  const layers = new Set(
    files
      .filter((f) => /(^|\/)kustomization\.ya?ml$/i.test(f))
      .flatMap((k) => kustomizeResources(readOr(root, k), dirname(k))),
  );
  const read = (f: string) => readOr(root, f);
  for (const file of files) {
    if (/(^|\/)node_modules\//.test(file)) continue;
    const chart = /(^|\/)Chart\.ya?ml$/.test(file);
    const kustom = /(^|\/)kustomization\.ya?ml$/i.test(file);
    if (!chart && !kustom) continue;
    const dir = dirname(file);
    // (an overlay another overlay varies, `overlays/cost-saving` on `overlays/local`, is still applied on its own)
    if (kustom && layers.has(dir) && !/(^|\/)overlays\//.test(dir)) continue;
    const own = files.filter((f) => dir === "." || f.startsWith(`${dir}/`));
    const sources: string[] = [];
    const inline: string[] = [];
    // (an engine image named only through values, `image: {{ .Values.images.vLLM }}`, is seen in the render)
    const chartFiles = chart ? own.filter((f) => inChart(f, dir) && /\.(ya?ml|tpl)$/.test(f)) : [];
    if (chart && !chartFiles.some((f) => LAUNCHES_ENGINE.test(read(f)) || ENGINE.test(read(f)))) continue;
    // where a flag the named template does not write comes from: an `include`d helper, a values list
    if (chart) sources.push(...chartFiles.filter((f) => /\.tpl$|(^|\/)values\.ya?ml$/.test(f)));
    if (kustom) {
      const k = read(file);
      // a base (its own manifests, nothing patched) is found through those manifests; an overlay is rendered
      const bases = [
        ...[...k.matchAll(/^\s*-\s*(\.\.\/\S+)/gm)].map((m) => posix.normalize(posix.join(dir, m[1]!))),
        // and what those build on: an overlay on a component on a base reaches the base's manifests
        ...layersUnder(root, kustomizeResources(k, dir), files),
      ];
      const patches = /^(patches|patchesStrategicMerge|patchesJson6902|images)\s*:/m.test(k);
      if (!bases.length && !patches) {
        // a directory that lists its own manifests: rendered when one of them starts an engine (`kubectl apply -k`
        // refuses a manifest that writes a key twice, which `kubectl apply -f` of it lets through)
        const listed = kustomizeResources(k, dir).filter((f) => files.includes(f) && /\.ya?ml$/.test(f));
        if (!listed.some((f) => LAUNCHES_ENGINE.test(read(f)))) continue;
        out.push({
          ...renderTarget(root, dir, file),
          render: { tool: "kustomize", dir, sources: listed, patches: [], plain: true },
        });
        continue;
      }
      // a base is a directory, or (kustomize refuses it by default, people still write it) a file
      const reach = [...own, ...files.filter((f) => bases.some((b) => f === b || f.startsWith(`${b}/`)))];
      if (!reach.some((f) => /\.ya?ml$/.test(f) && ENGINE.test(read(f)))) continue;
      sources.push(...reach.filter((f) => /\.ya?ml$/.test(f) && !/(^|\/)kustomization\.ya?ml$/i.test(f)));
      // a patch outside the overlay's directory (`- path: ../cpu-patch.yaml`) writes lines of the render too
      sources.push(...patchFiles(root, file).filter((f) => !sources.includes(f) && files.includes(f)));
      // a patch written inline (`- patch: |-`) is the kustomization's own text: its lines are a patch's
      if (INLINE_PATCH.test(k)) inline.push(file);
      sources.push(...inline);
    }
    out.push({
      ...renderTarget(root, dir, file),
      render: {
        tool: chart ? "helm" : "kustomize",
        dir,
        ...(kustom ? { sources, patches: [...patchFiles(root, file), ...inline] } : { sources }),
      },
    });
  }
  return out;
}

/** A chart or overlay as a target, named for its directory. */
function renderTarget(root: string, dir: string, file: string): Omit<PreflightTarget, "render"> {
  return {
    name: basename(dir === "." ? root : dir),
    scriptPath: file,
    unitPath: null,
    endpoint: null,
    kind: "kubernetes",
  };
}

/** The directories the given ones build on, through their own kustomizations (at most eight levels). */
function layersUnder(root: string, dirs: readonly string[], files: readonly string[]): string[] {
  const out = new Set<string>();
  let todo = [...dirs];
  for (let depth = 0; depth < 8 && todo.length; depth++) {
    const next: string[] = [];
    for (const d of todo) {
      const k = files.find((f) => /^kustomization\.ya?ml$/i.test(f.slice(d.length + 1)) && f.startsWith(`${d}/`));
      if (!k) continue;
      for (const r of kustomizeResources(readOr(root, k), d)) if (!out.has(r) && !dirs.includes(r)) next.push(r);
    }
    next.forEach((d) => out.add(d));
    todo = next;
  }
  return [...out];
}

function readOr(root: string, file: string): string {
  try {
    return readFileSync(join(root, file), "utf8");
  } catch {
    return "";
  }
}

/** The patch files a kustomization names (`patches: - path: x.yaml`, `patchesStrategicMerge: - x.yaml`): no launch. */
export function patchFiles(root: string, kustomization: string): string[] {
  let text = "";
  try {
    text = readFileSync(join(root, kustomization), "utf8");
  } catch {
    return [];
  }
  const dir = dirname(kustomization);
  const out: string[] = [];
  let inPatches = false;
  for (const line of text.split("\n")) {
    if (/^[A-Za-z]/.test(line)) inPatches = /^(patches|patchesStrategicMerge)\s*:/.test(line);
    const m = inPatches ? /^\s*-?\s*(?:path\s*:\s*)?([^\s:#]+\.ya?ml)\s*$/.exec(line) : null;
    if (m) out.push(posix.normalize(posix.join(dir, m[1]!)));
  }
  return out;
}
