// What every preflight check gets: the repo, its git port and the endpoints to check.
import type { AppliedChart } from "../../domain/launch/argo-app.js";
import type { Endpoint } from "../../domain/config/schema.js";
import type { FileKind } from "../../domain/launch/launch.js";
import type { GitReader } from "../../ports/git/batched.js";
import type { Git, StatusEntry } from "../../ports/git/git.js";
import type { RenderTool } from "../../ports/local/render.js";
import type { ScriptBatch } from "./script-batch.js";

/** A Helm chart or kustomize overlay: rendered by its tool before it is read. */
export interface RenderSpec {
  tool: RenderTool;
  /** the chart or overlay directory, relative to the repository root */
  dir: string;
  /**
   * kustomize: the manifests and patches it reads (its output names no source: lines are matched against these);
   * helm: the chart's helpers (`.tpl`) and values.yaml, where a flag its named template does not write is looked for
   */
  sources?: string[];
  /**
   * helm: value files applied on top of the chart's own, in order (an Argo CD Application's `helm.valueFiles`),
   * relative to the repository root; a flag they write is placed on their lines before the chart's values.yaml
   */
  valueFiles?: string[];
  /** kustomize: the patch files among the sources (what a patch writes replaces the base's text) */
  patches?: string[];
  /**
   * kustomize: a directory that only lists its own manifests (no base, no patch): rendered only to learn whether
   * `kubectl apply -k` takes it; its manifests are read as written (what the render says of them, line for line)
   */
  plain?: boolean;
}

export interface PreflightTarget {
  /** endpoint name from the config, or the file's base name when discovered without a config */
  name: string;
  /** the file that launches the engine: a serve script, or a unit or quadlet named alone */
  scriptPath: string;
  /** what that file is; only a script goes through bash -n and shellcheck */
  kind: FileKind;
  unitPath: string | null;
  /** a script that starts this compose file (`docker compose up`): no engine of its own, checked with it */
  launcher?: string;
  /** the compose service or Kubernetes Kind/name/container this target is, in a file that holds several */
  part?: string | null;
  /** a script's second (third...) engine: the file's own checks (bash -n, shellcheck, traps) ran for the first */
  sharesFile?: boolean;
  /** a second unit running the same script (another profile): only the unit's own rules are checked for it */
  unitOnly?: boolean;
  /** the unit is the body of a heredoc in unitPath (an installer writes it): its first and last line there */
  unitSpan?: [number, number];
  /** set for a chart or overlay: the file is what its tool renders (scriptPath is the template it came from) */
  render?: RenderSpec;
  /** null when the script was discovered (no config): only checks that need no config run */
  endpoint: Endpoint | null;
}

/** A chart as an Argo CD Application applies it, with value files of its own. */
export interface AppliedRender {
  app: AppliedChart;
  /** the value files outside the chart's defaults: where the drops this check reports are written */
  own: string[];
  spec: RenderSpec;
}

export interface PreflightContext {
  root: string;
  git: Git;
  /** batched reads (files at refs, ref shas, script histories) */
  reader: GitReader;
  targets: PreflightTarget[];
  /** --base: the ref dropped-flags compares against */
  base: string | null;
  /** the ref whose scripts are checked; the work tree when null */
  ref: string | null;
  /** filled by the history check: false means history-dependent checks cannot run */
  historyOk: boolean;
  /** false once shellcheck is known to be missing (reported once, not per script) */
  shellcheck?: boolean;
  statusCache?: Promise<StatusEntry[]>;
  /** bash -n and shellcheck run once over the work tree's scripts (see script-batch.ts) */
  scriptBatch?: ScriptBatch<PreflightTarget>;
  /** launch-form files that start no engine now (discovery only): checked for a launch that went away whole */
  quietFiles?: string[];
  /** charts an Argo CD Application applies with value files of its own (discovery only): checked for dropped flags */
  appliedRenders?: AppliedRender[];
  /** the config file, relative to the repository root: clean-tree never tells to stash it */
  configPath?: string | null;
}

export const SHALLOW_FIX =
  "fetch full history: with actions/checkout set `fetch-depth: 0` (and `fetch-tags: true`); locally run `git fetch --unshallow --tags`";
