// What the pipeline passes to the verify stage besides the StageContext.
import type { SshTarget } from "../../domain/config/schema.js";
import type { Host } from "../../ports/host/host.js";
import type { Deployment } from "../context.js";

/** decodeMs is per depth sample of verify.decode */
export interface VerifyTimeouts {
  factsMs: number;
  modelsMs: number;
  chatMs: number;
  /** verify.liveness: the one-token completion's deadline */
  livenessMs: number;
  metricsMs: number;
  decodeMs: number;
}
export const DEFAULT_TIMEOUTS: VerifyTimeouts = {
  factsMs: 20_000,
  modelsMs: 10_000,
  chatMs: 90_000,
  livenessMs: 30_000,
  metricsMs: 10_000,
  decodeMs: 180_000,
};

export interface VerifyOptions {
  /** null: `verify` alone — read the host's StateRecord */
  deployment: Deployment | null;
  timeouts?: Partial<VerifyTimeouts>;
  /** opens the SSH connection to `peer:` (default: SshHost.connect with the same key rules) */
  connectPeer?: (target: SshTarget) => Promise<Host>;
  /** DEPLOY_GATE_API_KEY is read from here (default process.env) */
  env?: NodeJS.ProcessEnv;
}
