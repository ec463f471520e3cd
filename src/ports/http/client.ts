// The HTTP port: requests from the machine running the gate (a peer of the serving host) to the
// endpoint's url. Every request has a timeout; bodies are capped so a runaway response cannot eat memory.
export interface HttpResult {
  /** null when no HTTP answer came (refused, reset, timed out) */
  status: number | null;
  body: string;
  /** why there was no answer, in plain words */
  error: string | null;
  durationMs: number;
}

export interface HttpOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
  headers?: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY = 4 << 20;

/** fetch's own words for a header it refuses quote the header's value: the bearer key. Never shown. */
export const BAD_HEADER =
  "a request header could not be sent: DEPLOY_GATE_API_KEY holds a character no HTTP header can carry (a newline or another control character): store the key alone, on one line";
export const isHeaderError = (e: unknown) => e instanceof TypeError && /^Headers\./.test(e.message);

function describe(e: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  if (isHeaderError(e)) return BAD_HEADER;
  const cause = (e as { cause?: { code?: string } }).cause;
  switch (cause?.code) {
    case "ECONNREFUSED":
      return "connection refused (nothing listens on that port yet)";
    case "ECONNRESET":
      return "connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name does not resolve";
    default:
      return (e as Error).message ?? String(e);
  }
}

/** A redirect is the endpoint's answer, not a hop to take: verify judges the url it is given (curl on a peer does not
 *  follow either), and a redirect to another server would judge that one. Null when the answer is no redirect. */
export function redirectError(res: Response, url: string): string | null {
  if (res.status < 300 || res.status > 399 || !res.headers.has("location")) return null;
  const to = new URL(res.headers.get("location")!, url).href;
  return `redirected (HTTP ${res.status}) to ${to}: the gate does not follow redirects; set the endpoint's url: (or --url) to where the engine itself answers`;
}

export async function request(
  method: "GET" | "POST",
  url: string,
  body: unknown,
  opts: HttpOptions = {},
): Promise<HttpResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, timeoutMs);
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method,
      signal: ctl.signal,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...opts.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
    const moved = redirectError(res, url);
    if (moved) {
      await res.body?.cancel();
      return { status: null, body: "", error: moved, durationMs: performance.now() - t0 };
    }
    const cap = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += (chunk as Uint8Array).length;
      if (size > cap) {
        ctl.abort();
        break;
      }
      chunks.push(chunk as Uint8Array);
    }
    return {
      status: res.status,
      body: Buffer.concat(chunks).toString("utf8"),
      error: size > cap ? `body larger than ${cap} bytes, cut` : null,
      durationMs: performance.now() - t0,
    };
  } catch (e) {
    return { status: null, body: "", error: describe(e, timedOut, timeoutMs), durationMs: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

export const httpGet = (url: string, opts?: HttpOptions) => request("GET", url, undefined, opts);
export const httpPostJson = (url: string, body: unknown, opts?: HttpOptions) => request("POST", url, body, opts);
