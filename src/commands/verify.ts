// `verify` on one host: the live endpoint against --ref, or against the ref the last deploy recorded there.
import { dirname } from "node:path";
import { requireFor } from "../domain/config/load.js";
import { statePath } from "../domain/host-state.js";
import { fail, type Finding } from "../domain/report/finding.js";
import { readStateRecord, runVerify } from "../stages/verify/verify.js";
import type { Options } from "./options.js";
import { withHost } from "./shared/connect.js";
import type { StageRun } from "./shared/deploy-verify.js";
import { endpointFor } from "./shared/endpoints.js";
import { resolveRef } from "./shared/refs.js";
import { stageContext } from "./shared/stage-context.js";
import type { Workspace } from "./shared/workspace.js";

/** verify alone: against --ref, or the ref recorded on the host by the last deploy. */
export async function verifyOnly(
  ws: Workspace,
  name: string,
  opts: Options,
  progress: (s: string) => void,
): Promise<StageRun> {
  const ep = endpointFor(ws, name, opts);
  requireFor(name, ep, "verify", ["host", "service", "url", "model"], ws.configFile!);
  const refused = (finding: Finding): StageRun => ({
    findings: [finding],
    ref: opts.ref ?? "(host unreachable: deployed ref unknown)",
    sha: null,
  });
  return withHost(ep, opts, dirname(ws.configFile!), refused, async (host) => {
    let ref = opts.ref;
    let shown = ref;
    if (!ref) {
      const state = await readStateRecord(host, name);
      if (!state) {
        return {
          findings: [
            fail("verify.container", `no deploy record for ${name} on the host (${statePath(name)})`, {
              fix: `pass --ref REF to verify against a ref, or deploy with deploy-gate run first`,
            }),
          ],
          ref: "(no deploy record on the host)",
          sha: null,
        };
      }
      ref = state.sha;
      // shown by the record's ref name (main, v1.2) while that name still points at the deployed commit
      shown = (await ws.git.resolve(state.ref).catch(() => null)) === state.sha ? state.ref : state.sha.slice(0, 10);
      progress(
        `${name}: verifying against the deployed ref ${state.ref} (${state.sha.slice(0, 10)}) recorded on the host`,
      );
    }
    const sha = await resolveRef(ws, ref);
    const ctx = stageContext(ws, name, ep, host, shown ?? ref, sha, progress);
    return { findings: [...(await runVerify(ctx, { deployment: null }))], ref: shown ?? ref, sha };
  });
}
