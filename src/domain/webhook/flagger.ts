// Flagger's webhook call, as its docs define it: POST {name, namespace, phase, metadata} where metadata is
// the canary's `webhooks[].metadata` (strings). 2xx advances the canary; anything else (or a timeout)
// counts a failed check. Pure: the body in, the payload or what is wrong with it out.

export interface FlaggerPayload {
  name: string;
  namespace: string;
  phase: string;
  metadata: Record<string, string>;
}

export type Parsed = { ok: true; payload: FlaggerPayload } | { ok: false; error: string };

/** A Kubernetes object name and a namespace are DNS-1123 labels (63 characters at most). */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function parseFlaggerPayload(body: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, error: "the body is not JSON: Flagger POSTs {name, namespace, phase, metadata}" };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { ok: false, error: "expected a JSON object {name, namespace, phase, metadata}" };
  const o = v as Record<string, unknown>;
  for (const k of ["name", "namespace"] as const)
    if (typeof o[k] !== "string" || !DNS_LABEL.test(o[k]))
      return { ok: false, error: `${k}: expected a Kubernetes name (lowercase letters, digits, -; 63 at most)` };
  if (typeof o.phase !== "string" || o.phase.length > 64)
    return { ok: false, error: "phase: expected a string (Flagger's canary phase, e.g. Progressing)" };
  const metadata: Record<string, string> = {};
  if (o.metadata !== undefined && o.metadata !== null) {
    if (typeof o.metadata !== "object" || Array.isArray(o.metadata))
      return { ok: false, error: "metadata: expected an object of strings" };
    for (const [k, val] of Object.entries(o.metadata)) {
      if (typeof val !== "string") return { ok: false, error: `metadata.${k}: expected a string` };
      metadata[k] = val;
    }
  }
  return {
    ok: true,
    payload: { name: o.name as string, namespace: o.namespace as string, phase: o.phase, metadata },
  };
}

/** {name} and {namespace} in an endpoint's url (or its kubernetes: namespace and selector) filled from a
 *  checked payload: DNS labels only, so nothing else can be spliced in. */
export const fillUrl = (url: string, p: Pick<FlaggerPayload, "name" | "namespace">): string =>
  url.replaceAll("{name}", p.name).replaceAll("{namespace}", p.namespace);
