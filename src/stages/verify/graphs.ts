// verify.graphs: the CUDA graph memory captured against the estimate the KV plan charged for it. Pure.
import type { Plan } from "../../domain/engine/plan.js";
import { pass, skip, warn, type Finding } from "../../domain/report/finding.js";

export const CHECK = "verify.graphs";

export function checkGraphs(plan: Plan): Finding {
  const { graphGiB: got, estimatedGraphGiB: est } = plan;
  const data = {
    capturedGiB: got,
    estimatedGiB: est,
    overrunGiB: got !== null && est !== null ? Math.round((got - est) * 100) / 100 : null,
  };
  if (got === null && est === null)
    return skip(CHECK, "no CUDA graph lines in this boot (eager mode, or an engine too old to print the estimate)", {
      data,
    });
  if (got === null || est === null) {
    return skip(
      CHECK,
      got === null
        ? `estimate ${est} GiB but no "Graph capturing finished" line yet`
        : `captured ${got} GiB but this engine prints no "Estimated CUDA graph memory" line to compare with`,
      { data },
    );
  }
  const evidence = [`estimated CUDA graph memory: ${est} GiB`, `captured: ${got} GiB`];
  if (got > est) {
    return warn(CHECK, `CUDA graph capture took ${got} GiB, ${data.overrunGiB} GiB over the ${est} GiB estimate`, {
      evidence,
      data,
      fix: `the ${data.overrunGiB} GiB overrun comes out of the VRAM margin: lower --gpu-memory-utilization, or raise the per-graph charge (seed 003: _PER_GRAPH_MB toward 52)`,
    });
  }
  return pass(CHECK, `CUDA graphs ${got} GiB within the ${est} GiB estimate`, { evidence, data });
}
