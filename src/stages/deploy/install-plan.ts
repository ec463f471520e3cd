// What deploy.install would change: the ref's files against the host's copies (sha256 and mode). Pure.
import { createHash } from "node:crypto";
import type { StateRecord } from "../../domain/host-state.js";
import { normMode, type HostCopy } from "../../domain/host-output.js";
export { parseStateRecord } from "../../domain/host-state.js";

export interface InstallFile {
  from: string;
  to: string;
  /** octal, at least 4 digits: "0755", "4755" */
  mode: string;
  /** the bytes at the commit, never decoded */
  content: Buffer;
  sha256: string;
}

export interface PlannedFile extends InstallFile {
  change: "new" | "content" | "mode" | "same";
}

export const sha256 = (content: Buffer | string) => createHash("sha256").update(content).digest("hex");
const sameMode = (a: string, b: string) => parseInt(a, 8) === parseInt(b, 8);

/** Unit files (and quadlets) need `systemctl daemon-reload` when they change. */
export function isUnitFile(path: string): boolean {
  return /\.(service|socket|timer|mount|path|target|container|slice)$/.test(path) || /^\/etc\/systemd\//.test(path);
}

export function planInstall(files: readonly InstallFile[], host: ReadonlyMap<string, HostCopy>): PlannedFile[] {
  return files.map((f) => {
    const h = host.get(f.to);
    const change = !h?.sha256
      ? "new"
      : h.sha256 !== f.sha256
        ? "content"
        : !h.mode || !sameMode(h.mode, f.mode)
          ? "mode"
          : "same";
    return { ...f, change };
  });
}

/** The new state record; `previous` is the record it replaces (kept as is when the same commit is redeployed). */
export function nextStateRecord(
  old: StateRecord | null,
  now: { endpoint: string; ref: string; sha: string; deployedAt: number; by: string; files: readonly InstallFile[] },
): StateRecord {
  const previous = old
    ? old.sha === now.sha
      ? old.previous
      : { ref: old.ref, sha: old.sha, deployedAt: old.deployedAt }
    : null;
  return {
    schema: 1,
    endpoint: now.endpoint,
    ref: now.ref,
    sha: now.sha,
    deployedAt: now.deployedAt,
    by: now.by,
    files: now.files.map((f) => ({ to: f.to, sha256: f.sha256, mode: normMode(f.mode) })),
    previous,
  };
}
