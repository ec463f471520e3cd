// What the deploy and verify stages get from the command, and what deploy hands to verify.
import type { Endpoint } from "../domain/config/schema.js";
import type { GitReader } from "../ports/git/batched.js";
import type { Host } from "../ports/host/host.js";

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
  /** DEPLOY_GATE_API_KEY as the command read it once (null: unset); absent: the stage reads its options' env */
  apiKey?: string | null;
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
  /**
   * NRestarts as the deploy's restart left it: non-zero when a crash loop took an attempt between reset-failed
   * and the restart (systemd keeps that count), so verify counts only restarts above it.
   */
  baselineRestarts?: number;
}

/** The endpoint's API key: the command's, read once; a stage called on its own (tests, benches) reads env. */
export const apiKeyOf = (ctx: StageContext, env: NodeJS.ProcessEnv = process.env): string | undefined =>
  (ctx.apiKey !== undefined ? ctx.apiKey : env.DEPLOY_GATE_API_KEY) || undefined;
