// verify.compile-cache: did this boot's torch.compile load from the cache or compile cold, and with what
// seconds (seed 003, "Compile-cache persistence"). A declared cache mount that still compiles cold on a
// later boot is a warning naming the likely cause. Pure.
import type { CompileCache, Plan } from "../../domain/engine/plan.js";
import { pass, skip, warn, type Finding } from "../../domain/report/finding.js";
import type { PodmanRun, ServeScript } from "../../domain/launch/model.js";
import { createdDirs, samePath } from "../../domain/launch/dirs.js";

export const CHECK = "verify.compile-cache";
const DEFAULT_ROOT = "/root/.cache/vllm";

export interface CompileCacheInput {
  cache: CompileCache;
  plan: Plan;
  /** earlier container instances of this name whose boot logged torch.compile (0: this is the first boot seen) */
  earlierBoots: number;
  script: ServeScript | null;
  scriptPath: string;
  env: ReadonlyMap<string, string> | null;
  /** oldest file in the cache mount's host directory (null: it held none; undefined: not read) */
  cacheOldestMs?: number | null;
  /** when this container was created (host clock) */
  createdMs?: number | null;
  /** the engine runs straight under the unit (no container): its cache is a host directory that outlives restarts */
  direct?: boolean;
}

/** The host directory mounted over the vLLM cache root, when it is a plain absolute path (facts read its age). */
export function cacheMountSource(run: PodmanRun | null): string | null {
  const root = run?.env.find((e) => e.name === "VLLM_CACHE_ROOT")?.value ?? DEFAULT_ROOT;
  const m = run?.volumes.find((v) => /cache/i.test(v.target) && under(root, v.target.replace(/\/+$/, "")));
  const src = m ? (m.resolvedSource ?? m.source) : null;
  return src && src.startsWith("/") && !/[$`]/.test(src) ? src : null;
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir.replace(/\/+$/, "")}/`);

/** Why a declared cache mount did not keep the compiled graphs. */
export function likelyCauses(
  run: PodmanRun,
  script: ServeScript,
  cacheRoot: string,
): { mount: string | null; causes: string[] } {
  const mounts = run.volumes.filter((v) => /cache/i.test(v.target));
  if (mounts.length === 0) return { mount: null, causes: [] };
  const causes: string[] = [];
  const covering = mounts.find((v) => under(cacheRoot, v.target.replace(/\/+$/, "")));
  if (!covering)
    causes.push(
      `the mount target ${mounts.map((v) => v.target).join(", ")} does not contain the vLLM cache root ${cacheRoot}: mount the PARENT (/root/.cache) or set VLLM_CACHE_ROOT inside the mount`,
    );
  const m = covering ?? mounts[0]!;
  const word = run.command.words.find((w) => w.line === m.line && w.text.includes(m.source));
  if (word?.optional)
    causes.push(`the mount is optional (\${VAR:+-v ...}): when its variable is unset on the host no cache is mounted`);
  const before = script.commands.filter((c) => c.line < run.command.line).flatMap((item) => createdDirs({ item }));
  const src = { text: m.source, ...(m.resolvedSource !== undefined ? { resolved: m.resolvedSource } : {}) };
  if (!before.some((w) => samePath(w, src)))
    causes.push(`no mkdir -p of ${m.source} before the podman run (a missing or re-created directory starts empty)`);
  if (causes.length === 0)
    causes.push(
      "a changed compile range (--max-num-batched-tokens, max-num-seqs) costs ONE recompile: if the next boot is warm, nothing is wrong",
    );
  return { mount: `${m.source}:${m.target}`, causes };
}

export function checkCompileCache(i: CompileCacheInput): Finding {
  const { cache, plan } = i;
  const total = plan.compileSeconds === null ? "" : `; torch.compile took ${plan.compileSeconds} s in total`;
  const data = { ...cache, compileSeconds: plan.compileSeconds, earlierBoots: i.earlierBoots };
  if (cache.state === null)
    return skip(CHECK, "no torch.compile lines in this boot (eager mode, or the journal lost them)", { data });
  if (cache.state === "hit") {
    return pass(CHECK, `warm: ${cache.graphsLoaded} compiled graph(s) loaded from the cache${total}`, {
      evidence: [`Directly load the compiled graph(s) x${cache.graphsLoaded}${total}`],
      data,
    });
  }
  const cold = `cold: ${cache.graphsCompiled} graph(s) compiled, the slowest in ${cache.slowestGraphSeconds ?? "?"} s${total}`;
  const run = i.script?.engine?.podmanRun ?? null;
  const root = i.env?.get("VLLM_CACHE_ROOT") ?? DEFAULT_ROOT;
  const found = run && i.script ? likelyCauses(run, i.script, root) : { mount: null, causes: [] };
  if (i.direct) {
    // No container to recreate: the cache is the unit user's own (VLLM_CACHE_ROOT, else ~/.cache/vllm), on the host.
    return pass(
      CHECK,
      `${cold} (the engine runs on the host without a container: its compile cache is ${i.env?.get("VLLM_CACHE_ROOT") ?? "~/.cache/vllm of the unit's user"}, kept across restarts)`,
      { evidence: [cold], data },
    );
  }
  if (found.mount === null) {
    return pass(CHECK, `${cold} (no cache mount declared: every container recreate re-pays it)`, {
      evidence: [cold],
      data,
      fix: `to keep it: mkdir -p "$CACHE_DIR" before the podman run, then -v "$CACHE_DIR":/root/.cache in ${i.scriptPath}`,
    });
  }
  // every file in the mount is this boot's: the earlier boots ran before it held anything (just added, or
  // emptied), so nothing was lost. An empty mount after a cold compile means the cache went elsewhere: warn.
  const filledNow = typeof i.cacheOldestMs === "number" && i.createdMs != null && i.cacheOldestMs >= i.createdMs - 1000;
  if (i.earlierBoots > 0 && filledNow) {
    return pass(
      CHECK,
      `${cold}, the first boot to fill the cache mount ${found.mount} (it held no file from before this container): the next boot should load from it`,
      { evidence: [cold], data: { ...data, mount: found.mount } },
    );
  }
  if (i.earlierBoots === 0)
    return pass(
      CHECK,
      `${cold}, first boot seen with the cache mount ${found.mount}: the next boot should load from it`,
      { evidence: [cold], data },
    );
  return warn(
    CHECK,
    `compiled cold again although ${i.scriptPath} mounts a cache (${found.mount}) and ${i.earlierBoots} earlier boot(s) of this container compiled`,
    {
      evidence: [cold, ...found.causes.map((c) => `likely cause: ${c}`)],
      data: { ...data, mount: found.mount, causes: found.causes },
      fix: found.causes[0]!,
    },
  );
}
