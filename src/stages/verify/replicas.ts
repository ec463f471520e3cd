// verify.replicas: the hosts of a fleet run the same ref, the same live argv and the same plan (KV
// tokens within a tolerance). Pure: the facts are read by the fleet runner; the odd ones out are named.
import { maskArgv } from "../../domain/redact/mask.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";

export const CHECK = "verify.replicas";

export interface ReplicaFacts {
  host: string;
  /** the commit the host's state record says was deployed */
  sha: string | null;
  /** the engine's live argv (PID 1 of the container) */
  argv: string[] | null;
  /** "GPU KV cache size" of the running boot */
  kvTokens: number | null;
  /** why the facts could not be read, when they could not */
  error?: string | null;
}

/** The most common value (first seen wins a tie), or null when none is known. */
function majority(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)!) best = v;
  return best;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Flags in one argv and not the other, for the evidence of an argv drift. */
function argvDiff(ref: readonly string[], other: readonly string[]): string {
  const only = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));
  const plus = only(other, ref);
  const minus = only(ref, other);
  return (
    [minus.length ? `missing ${minus.join(" ")}` : "", plus.length ? `extra ${plus.join(" ")}` : ""]
      .filter(Boolean)
      .join("; ") || "same words, another order"
  );
}

/** The drift between two argvs as shown: masked first, so a secret that differs is said, never shown. */
function shownDiff(ref: readonly string[], other: readonly string[]): string {
  const [a, b] = [maskArgv(ref), maskArgv(other)];
  return JSON.stringify(a) === JSON.stringify(b) ? "a secret flag's value differs (not shown)" : argvDiff(a, b);
}

/**
 * Compares every replica with the fleet: the expected commit (or the commit most hosts run), the argv
 * most hosts run, and the median KV pool. A host that differs is named with what differs.
 */
export function checkReplicas(
  rows: readonly ReplicaFacts[],
  opts: { expectedSha: string | null; kvTolerance: number; endpoint?: string; redeploy?: "run" | "rollback" },
): Finding {
  const unread = rows.filter((r) => r.error);
  const read = rows.filter((r) => !r.error);
  if (rows.length < 2)
    return skip(
      CHECK,
      `one replica in this run (${rows.map((r) => r.host).join(", ") || "none"}): nothing to compare`,
      { fix: "run verify without --hosts to compare every replica" },
    );
  const refSha = opts.expectedSha ?? majority(read.map((r) => r.sha));
  const argvKey = (r: ReplicaFacts) => (r.argv ? JSON.stringify(r.argv) : null);
  const refArgv = majority(read.map(argvKey));
  const kvs = read.map((r) => r.kvTokens).filter((k): k is number => k !== null);
  const kvMedian = kvs.length ? median(kvs) : null;
  const drift: { host: string; what: string[] }[] = [];
  const evidence: string[] = [];
  for (const r of read) {
    const what: string[] = [];
    if (r.sha !== refSha)
      what.push(`ref ${r.sha?.slice(0, 10) ?? "unrecorded"} (the fleet: ${refSha?.slice(0, 10) ?? "?"})`);
    if (argvKey(r) !== refArgv)
      what.push(r.argv && refArgv ? `argv: ${shownDiff(JSON.parse(refArgv) as string[], r.argv)}` : "argv unreadable");
    if (kvMedian !== null && (r.kvTokens === null || Math.abs(r.kvTokens - kvMedian) > opts.kvTolerance * kvMedian)) {
      what.push(
        r.kvTokens === null
          ? "no KV cache line in this boot"
          : `KV pool ${r.kvTokens.toLocaleString("en-US")} tokens vs the fleet's median ${kvMedian.toLocaleString("en-US")} (tolerance ${(opts.kvTolerance * 100).toFixed(0)}%)`,
      );
    }
    if (what.length) drift.push({ host: r.host, what });
    evidence.push(
      `${r.host}: ref ${r.sha?.slice(0, 10) ?? "?"}, ${r.argv ? `${r.argv.length} argv words` : "argv ?"}, KV ${r.kvTokens?.toLocaleString("en-US") ?? "?"} tokens${what.length ? `  <- ${what.join("; ")}` : ""}`,
    );
  }
  for (const r of unread) evidence.push(`${r.host}: facts not read: ${r.error}`);
  // compared raw (a key that differs is drift), held masked: no argv leaves here with a secret in it
  const data = {
    rows: rows.map((r) => ({ ...r, argv: r.argv && maskArgv(r.argv) })),
    drift,
    expectedSha: refSha,
    kvMedian,
  };
  if (drift.length || unread.length) {
    const named = [
      ...drift.map((d) => `${d.host} (${d.what.map((w) => w.split(/[ :]/)[0]).join(", ")})`),
      ...unread.map((r) => `${r.host} (unreadable)`),
    ];
    return fail(CHECK, `${named.length} of ${rows.length} replica(s) differ from the fleet: ${named.join(", ")}`, {
      evidence,
      data,
      fix: `redeploy the named host(s) from the repo: deploy-gate ${opts.redeploy ?? "run"}${opts.endpoint ? ` --endpoint ${opts.endpoint}` : ""} --hosts ${[...drift.map((d) => d.host), ...unread.map((r) => r.host)].join(",")} (a hand edit on a host is overwritten; a KV pool that differs means other free VRAM or another GPU: check nvidia-smi there)`,
    });
  }
  return pass(
    CHECK,
    `${rows.length} replicas agree: ref ${refSha?.slice(0, 10) ?? "?"}, the same live argv, KV ${kvMedian?.toLocaleString("en-US") ?? "?"} tokens (within ${(opts.kvTolerance * 100).toFixed(0)}%)`,
    { evidence, data },
  );
}
