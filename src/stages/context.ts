// What the deploy and verify stages get from the pipeline, and what deploy hands to verify.
import type { Endpoint } from "../domain/config/schema.js";
import type { GitReader } from "../ports/git/batched.js";
import type { Host } from "../ports/host/host.js";

/** Where the gate keeps its lock and state record on the host, relative to the SSH user's home. */
export const HOST_STATE_DIR = ".deploy-gate";

export interface StageContext {
  /** endpoint name from deploy-gate.yml */
  name: string;
  endpoint: Endpoint;
  configFile: string;
  /** repository root and batched git reads: files are taken at `sha`, never from the work tree */
  root: string;
  reader: GitReader;
  /** the ref being deployed or verified against, and its commit */
  ref: string;
  sha: string;
  /** paths of the endpoint's files relative to the repository root (config paths are relative to the config file) */
  repoPath: (configRelative: string) => string;
  /** the serving host, connected, host key pinned */
  host: Host;
  /** one line of progress for a person watching (stderr in the CLI, the log in the action) */
  progress: (line: string) => void;
  /** the runner's clock, for durations only; windows of time on the host use the host's clock */
  now: () => number;
  signal?: AbortSignal;
  /** a fleet endpoint's host name (hosts:), for the commands fixes name (--hosts NAME) */
  fleetHost?: string;
}

/** What a deploy established, for verify: the window of this deploy on the host's own clock. */
export interface Deployment {
  endpoint: string;
  ref: string;
  sha: string;
  /** host clock, epoch milliseconds, just before the restart */
  startedAtHostMs: number;
  /** `journalctl --show-cursor` taken on the host just before the restart */
  journalCursor: string | null;
  /** the container created after startedAtHostMs, once seen */
  containerId: string | null;
  containerCreatedAtHostMs: number | null;
}

/** The record deploy.install keeps on the host (HOST_STATE_DIR/state/<endpoint>.json); verify and rollback read it. */
export interface StateRecord {
  schema: 1;
  endpoint: string;
  ref: string;
  sha: string;
  /** host clock, epoch seconds */
  deployedAt: number;
  by: string;
  files: { to: string; sha256: string; mode: string }[];
  previous: { ref: string; sha: string; deployedAt: number } | null;
}

/** Where deploy.install keeps an endpoint's StateRecord on the host (relative to the SSH user's home). */
export const statePath = (endpoint: string): string => `${HOST_STATE_DIR}/state/${endpoint}.json`;

/** A StateRecord read back from the host, or null when it is missing, not JSON, or lacks its keys. */
export function parseStateRecord(text: string): StateRecord | null {
  try {
    const v = JSON.parse(text) as Partial<StateRecord>;
    if (v.schema !== 1 || typeof v.ref !== "string" || typeof v.sha !== "string" || typeof v.deployedAt !== "number") return null;
    return { schema: 1, endpoint: v.endpoint ?? "?", ref: v.ref, sha: v.sha, deployedAt: v.deployedAt, by: v.by ?? "?", files: v.files ?? [], previous: v.previous ?? null };
  } catch {
    return null;
  }
}
