// The webhook server: Flagger's pre-rollout and rollout hooks (POST {name, namespace, phase, metadata})
// answered with verify over HTTP alone. 200 when verify passes, 412 with the failing checks, 503 when the
// gate could not judge or is busy, 504 past the deadline, 400 for a body Flagger would not send. Bounded
// concurrency (a call past the limit is refused at once, never queued behind a slow engine), calls for a
// canary already being verified share that verdict and its deadline, a capped body, and the report's own
// redaction on every answer.
import type { Config } from "../../domain/config/schema.js";
import { maskKnown } from "../../domain/redact/known.js";
import { redact } from "../../domain/redact/redact.js";
import { reportExitCode, type Report } from "../../domain/report/finding.js";
import { sanitizeValue } from "../../domain/report/sanitize.js";
import { fillUrl, parseFlaggerPayload, type FlaggerPayload } from "../../domain/webhook/flagger.js";
import { HTTP_TIMEOUTS, type HttpVerifyTimeouts } from "../../stages/verify/over-http.js";
import { serveJson, type Answer, type Inbound } from "../../ports/http/json-server.js";
import type { Options } from "../options.js";
import { verifyOverHttpReport, type HttpTarget } from "../verify-http.js";

export { parseListen } from "../../ports/http/json-server.js";

export const MAX_BODY_BYTES = 64 << 10;
/** calls sharing one canary's verify (the first included); past it a retry storm is refused like a busy gate */
export const MAX_SHARED = 16;

export interface WebhookOptions {
  config: Config;
  /** HOST:PORT (":8080" is every address) */
  listen: string;
  env: NodeJS.ProcessEnv;
  /** verifies running at once; a call past it gets 503 and Retry-After */
  limit: number;
  /** per call: past it the answer is 504 (and every request of that verify has this deadline too) */
  deadlineMs: number;
  /** the namespaces whose canaries it judges (--namespaces); null: any, refused when the config fills {namespace} */
  namespaces: readonly string[] | null;
  log: (line: string) => void;
}

/** The endpoint whose url: or kubernetes.namespace is filled from the payload's namespace, if any. */
function fillsNamespace(config: Config): string | null {
  for (const [name, ep] of Object.entries(config.endpoints))
    if (`${ep.url ?? ""} ${ep.kubernetes?.namespace ?? ""}`.includes("{namespace}")) return name;
  return null;
}

export interface Webhook {
  url: string;
  inFlight: () => number;
  close: () => Promise<void>;
}

function target(config: Config, p: FlaggerPayload): HttpTarget | string {
  const names = Object.keys(config.endpoints);
  const name = p.metadata.endpoint ?? (names.length === 1 ? names[0]! : null);
  if (!name) return `metadata.endpoint: name one of ${names.join(", ")} in the canary's webhook metadata`;
  const ep = config.endpoints[name];
  if (!ep) return `metadata.endpoint "${name}" is not in the config; endpoints: ${names.join(", ")}`;
  if (!ep.url) return `endpoint ${name} has no url: in the config: add url: http://{name}-canary.{namespace}:PORT`;
  const k = ep.kubernetes;
  const kubernetes = k ? { ...k, namespace: fillUrl(k.namespace, p), selector: fillUrl(k.selector, p) } : undefined;
  return { name, endpoint: { ...ep, url: fillUrl(ep.url, p), ...(kubernetes ? { kubernetes } : {}) }, config };
}

const busy = (why: string): Answer => ({
  status: 503,
  body: { error: `busy: ${why}; Flagger retries` },
  headers: { "retry-after": "10" },
});

/** A verify's outcome as the webhook's answer: its report, null past the deadline, or the error it threw. */
function answerOf(
  report: Report | Error | null,
  p: FlaggerPayload,
  url: string,
  deadlineMs: number,
  secrets: string[],
  merged: boolean,
): Answer {
  const shared = merged ? { merged: true } : {};
  if (!report)
    return {
      status: 504,
      body: {
        verdict: "undecided",
        error: `verify did not finish within ${deadlineMs} ms; raise --deadline and the webhook's timeout:`,
        ...shared,
      },
    };
  if (report instanceof Error)
    return {
      status: 503,
      body: {
        verdict: "undecided",
        error: sanitizeValue(maskKnown(`verify could not run: ${report.message}`, secrets)),
        ...shared,
      },
    };
  const code = reportExitCode(report);
  const failed = report.findings
    .filter((f) => f.status === "fail")
    .map((f) => ({ check: f.check, summary: f.summary, ...(f.fix ? { fix: f.fix } : {}) }));
  const verdict = code === 2 ? "undecided" : code === 1 ? "fail" : "pass";
  return {
    status: code === 2 ? 503 : code === 1 ? 412 : 200,
    body: {
      verdict,
      endpoint: report.endpoint,
      canary: `${p.namespace}/${p.name}`,
      phase: p.phase,
      url: redact(url),
      durationMs: report.durationMs,
      ...shared,
      ...(failed.length ? { failed } : {}),
      checks: report.findings.map((f) => ({ check: f.check, status: f.status, summary: f.summary })),
    },
  };
}

export async function startWebhook(o: WebhookOptions): Promise<Webhook> {
  const filled = fillsNamespace(o.config);
  // any caller could name a namespace holding its own {name}-canary Service and receive the API key
  if (filled && !o.namespaces)
    throw new Error(
      `endpoint ${filled} fills {namespace} from the caller's payload: pass --namespaces NS[,NS] naming the namespaces whose canaries this webhook judges`,
    );
  let running = 0;
  const shared = new Map<string, { verdict: Promise<Report | Error | null>; callers: number }>();
  const secrets = [o.env.DEPLOY_GATE_API_KEY, o.env.DEPLOY_GATE_SSH_PASSPHRASE].filter((x): x is string => Boolean(x));
  // every request of a verify ends by the call's deadline
  const timeouts: Partial<HttpVerifyTimeouts> = Object.fromEntries(
    Object.entries(HTTP_TIMEOUTS).map(([k, v]) => [k, Math.min(v, o.deadlineMs)]),
  );
  const opts = { command: "verify", json: true, failOnWarn: false } as Options;

  async function handle(req: Inbound): Promise<Answer> {
    const path = req.path;
    if (req.method === "GET" && path === "/healthz") return { status: 200, body: { ok: true, running } };
    if (req.method !== "POST")
      return { status: 405, body: { error: "POST Flagger's webhook payload here" }, headers: { allow: "POST" } };
    const text = req.body;
    if (text === null) return { status: 413, body: { error: `the body is over ${MAX_BODY_BYTES} bytes` } };
    const parsed = parseFlaggerPayload(text);
    if (!parsed.ok) return { status: 400, body: { error: parsed.error } };
    if (o.namespaces && !o.namespaces.includes(parsed.payload.namespace))
      return {
        status: 403,
        body: {
          error: `namespace ${parsed.payload.namespace} is not one this webhook judges (--namespaces ${o.namespaces.join(",")}): add it there`,
        },
      };
    const t = target(o.config, parsed.payload);
    if (typeof t === "string") return { status: 400, body: { error: t } };
    // Flagger retries and several canaries' hooks can name the same one: a call for a canary whose verify is
    // running (same endpoint, namespace, name and phase) waits for that verdict and keeps its deadline
    const key = JSON.stringify([t.name, parsed.payload.namespace, parsed.payload.name, parsed.payload.phase]);
    const joined = shared.get(key);
    if (joined) {
      if (joined.callers >= MAX_SHARED) return busy(`${joined.callers} calls already wait for this canary's verify`);
      joined.callers++;
      return answerOf(await joined.verdict, parsed.payload, t.endpoint.url, o.deadlineMs, secrets, true);
    }
    if (running >= o.limit) return busy(`${running} verify already running (the limit is ${o.limit})`);
    running++;
    // settles either way, so a verify that fails after the deadline leaves no rejection unhandled
    const verify = verifyOverHttpReport(opts, t, o.env, () => {}, Date.now, timeouts)
      .catch((e: Error) => e)
      .finally(() => running--);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), o.deadlineMs)));
    const verdict = Promise.race([verify, late]).finally(() => {
      clearTimeout(timer);
      shared.delete(key);
    });
    shared.set(key, { verdict, callers: 1 });
    return answerOf(await verdict, parsed.payload, t.endpoint.url, o.deadlineMs, secrets, false);
  }

  const server = await serveJson({ listen: o.listen, maxBodyBytes: MAX_BODY_BYTES, handle, log: o.log });
  return {
    url: server.url,
    inFlight: () => running,
    close: () => server.close(),
  };
}
