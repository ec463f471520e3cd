// The facts of a Kubernetes pod as `kubectl get pods -o json` and `kubectl get events -o json` print them
// (a v1 List of core/v1 Pod or Event objects): what verify and the diagnosis read instead of systemd's and
// podman's. Pure: kubectl's text in, facts out.

export interface EnvVar {
  name: string;
  /** the literal value; null when it comes from a Secret, ConfigMap or field (never read here) */
  value: string | null;
  from?: string;
}

export interface ContainerFacts {
  name: string;
  args: string[];
  command: string[];
  env: EnvVar[];
  image: string;
  /** "sha256:…" of the image the runtime pulled; null before a pull succeeded */
  imageDigest: string | null;
  restartCount: number;
  ready: boolean;
  /** when the current run started (state.running.startedAt); null when it is not running */
  startedAt: string | null;
  waiting: { reason: string; message: string } | null;
  lastTerminated: { reason: string; exitCode: number | null; finishedAt: string | null } | null;
}

export interface PodFacts {
  name: string;
  phase: string;
  ready: boolean;
  node: string | null;
  createdAt: string | null;
  /** PodScheduled False: the scheduler's message (e.g. "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.") */
  unschedulable: string | null;
  /** the named container, null when the pod has none of that name */
  container: ContainerFacts | null;
  containers: string[];
}

export interface EventFacts {
  type: string;
  reason: string;
  message: string;
  count: number;
  at: string | null;
}

type J = Record<string, unknown>;
const obj = (v: unknown): J => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as J) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === "string");

function listItems(text: string): J[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error(`not kubectl's JSON (${text.trim().split("\n")[0]?.slice(0, 160) ?? "empty"})`);
  }
  const o = obj(v);
  if (o.kind === "List" || Array.isArray(o.items)) return arr(o.items).map(obj);
  if (typeof o.kind === "string") return [o];
  throw new Error("not kubectl's JSON: no kind and no items");
}

function envOf(c: J): EnvVar[] {
  return arr(c.env).map((e) => {
    const v = obj(e);
    const name = String(v.name ?? "");
    if (typeof v.value === "string") return { name, value: v.value };
    const from = obj(v.valueFrom);
    const [kind, ref] = Object.entries(from)[0] ?? ["valueFrom", {}];
    const r = obj(ref);
    const where = [str(r.name), str(r.key) ?? str(r.fieldPath) ?? str(r.resource)].filter(Boolean).join("/");
    return {
      name,
      value: v.valueFrom ? null : "",
      ...(v.valueFrom ? { from: `${kind}${where ? ` ${where}` : ""}` } : {}),
    };
  });
}

/** The digest in an imageID such as "docker.io/vllm/vllm-openai@sha256:…" (or "sha256:…" alone). */
const digestOf = (imageID: unknown): string | null => /sha256:[0-9a-f]{64}/.exec(String(imageID ?? ""))?.[0] ?? null;

export function parsePods(text: string, container: string): PodFacts[] {
  return listItems(text)
    .filter((p) => p.kind === undefined || p.kind === "Pod")
    .map((p) => {
      const meta = obj(p.metadata);
      const spec = obj(p.spec);
      const status = obj(p.status);
      const conds = arr(status.conditions).map(obj);
      const cond = (t: string) => conds.find((c) => c.type === t);
      const specs = arr(spec.containers).map(obj);
      const c = specs.find((s) => s.name === container);
      const st = arr(status.containerStatuses)
        .map(obj)
        .find((s) => s.name === container);
      const state = obj(st?.state);
      const waiting = obj(state.waiting);
      const last = obj(obj(st?.lastState).terminated);
      const scheduled = cond("PodScheduled");
      return {
        name: String(meta.name ?? ""),
        phase: String(status.phase ?? "Unknown"),
        ready: cond("Ready")?.status === "True",
        node: str(spec.nodeName),
        createdAt: str(meta.creationTimestamp),
        unschedulable: scheduled?.status === "False" ? (str(scheduled.message) ?? str(scheduled.reason)) : null,
        containers: specs.map((s) => String(s.name)),
        container: c
          ? {
              name: container,
              args: strs(c.args),
              command: strs(c.command),
              env: envOf(c),
              image: String(c.image ?? ""),
              imageDigest: digestOf(st?.imageID),
              restartCount: typeof st?.restartCount === "number" ? st.restartCount : 0,
              ready: st?.ready === true,
              startedAt: str(obj(state.running).startedAt),
              waiting: state.waiting
                ? { reason: String(waiting.reason ?? ""), message: String(waiting.message ?? "") }
                : null,
              lastTerminated: Object.keys(last).length
                ? {
                    reason: String(last.reason ?? ""),
                    exitCode: typeof last.exitCode === "number" ? last.exitCode : null,
                    finishedAt: str(last.finishedAt),
                  }
                : null,
            }
          : null,
      };
    });
}

export function parseEvents(text: string): EventFacts[] {
  return listItems(text)
    .map((e) => ({
      type: String(e.type ?? ""),
      reason: String(e.reason ?? ""),
      message: String(e.message ?? "").trim(),
      count: typeof e.count === "number" ? e.count : 1,
      at: str(e.lastTimestamp) ?? str(e.eventTime) ?? str(e.firstTimestamp) ?? str(obj(e.metadata).creationTimestamp),
    }))
    .sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""));
}

// Label selector grammar (kubectl's): key[op]value terms, comma-separated; set-based `in (a,b)`.
const KEY = String.raw`(?:[A-Za-z0-9][-A-Za-z0-9_.]*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`;
const VAL = String.raw`(?:[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?`;
const TERM = String.raw`(?:!?${KEY}|${KEY}\s*(?:==|=|!=)\s*${VAL}|${KEY}\s+(?:in|notin)\s+\(\s*${VAL}(?:\s*,\s*${VAL})*\s*\))`;
const SELECTOR = new RegExp(String.raw`^${TERM}(?:\s*,\s*${TERM})*$`);

/** A label selector kubectl accepts, and nothing else: it reaches kubectl's argv as one argument. */
export const validSelector = (s: string): boolean => s.length > 0 && s.length <= 256 && SELECTOR.test(s);

/** Namespaces and container names are DNS-1123 labels. */
export const validName = (s: string): boolean => /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(s);
