// The gate's own files on the host (lock and state record, under the SSH user's home), and the state
// record's shape. Pure.

/** Where the gate keeps its lock and state record on the host, relative to the SSH user's home. */
export const HOST_STATE_DIR = ".deploy-gate";

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
    if (v.schema !== 1 || typeof v.ref !== "string" || typeof v.sha !== "string" || typeof v.deployedAt !== "number")
      return null;
    return {
      schema: 1,
      endpoint: v.endpoint ?? "?",
      ref: v.ref,
      sha: v.sha,
      deployedAt: v.deployedAt,
      by: v.by ?? "?",
      files: v.files ?? [],
      previous: v.previous ?? null,
    };
  } catch {
    return null;
  }
}
