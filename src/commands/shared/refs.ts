// The refs a verb works on, resolved to commits, with one message for a ref this clone does not have.
import { UsageError, type Options } from "../options.js";
import type { Workspace } from "./workspace.js";

/** The commit of ref, or a usage error that says how to get it (a CI clone is often shallow). */
export async function resolveRef(ws: Workspace, ref: string, flag = ""): Promise<string> {
  const sha = await ws.git.resolve(ref);
  if (!sha)
    throw new UsageError(
      `${flag}${ref} does not exist in this repository (git tag -l; git fetch --tags; with actions/checkout use fetch-depth: 0)`,
    );
  return sha;
}

/** The ref run/rollback deploys (--ref, the branch, or rollback.ref) and its commit. */
export async function deployRef(ws: Workspace, name: string, opts: Options): Promise<{ ref: string; sha: string }> {
  const ep = ws.config!.endpoints[name]!;
  // The state record on the host names what was deployed: a branch name says more than "HEAD".
  let ref = opts.ref ?? (await ws.git.branch()) ?? "HEAD";
  // rollback: --ref names another version to go back to than rollback.ref
  if (opts.command === "rollback" && !opts.ref) {
    if (!ep.rollback)
      throw new UsageError(
        `endpoints.${name}.rollback is not configured: add rollback: { ref: <tag> } to roll back, or pass --ref REF`,
      );
    ref = ep.rollback.ref;
  }
  return { ref, sha: await resolveRef(ws, ref) };
}
