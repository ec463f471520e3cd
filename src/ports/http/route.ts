// How the HTTP checks reach the endpoint: from the runner (a peer of the host) straight to `url`; from
// the configured `peer` over SSH with curl; as a last resort through an SSH tunnel to the serving host,
// which is "not from a peer". Never `localhost` inside an SSH session on the serving host.
import { request as httpRequest } from "node:http";
import type { Duplex } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import type { Host } from "../host/host.js";
import { request, type HttpResult } from "./client.js";
import { curlConfig, parseCurlOutput } from "./curl.js";
import { streamFromPeer, streamFromRunner, streamThroughTunnel } from "./stream-route.js";
import type { StreamResult } from "./sse.js";

export interface Route {
  /** for the report: "runner", "peer root@x:22", "SSH tunnel through root@y:22" */
  via: string;
  fromPeer: boolean;
  send(method: "GET" | "POST", path: string, body: unknown, timeoutMs: number): Promise<HttpResult>;
  /** a streamed POST with each SSE piece timed (verify.decode) */
  stream(path: string, body: unknown, timeoutMs: number): Promise<StreamResult>;
}

const join = (base: string, path: string) => base.replace(/\/+$/, "") + path;

export function runnerRoute(url: string, headers: Record<string, string>): Route {
  return {
    via: "runner",
    fromPeer: true,
    send: (method, path, body, timeoutMs) => request(method, join(url, path), body, { timeoutMs, headers }),
    stream: (path, body, timeoutMs) => streamFromRunner(join(url, path), body, headers, timeoutMs),
  };
}

export function peerRoute(peer: Host, url: string, headers: Record<string, string>): Route {
  return {
    via: `peer ${peer.name}`,
    fromPeer: true,
    async send(method, path, body, timeoutMs) {
      const t0 = performance.now();
      let r;
      try {
        r = await peer.run(["curl", "-K", "-"], {
          stdin: curlConfig(method, join(url, path), body, headers, timeoutMs),
          timeoutMs: timeoutMs + 5000,
        });
      } catch (e) {
        return {
          status: null,
          body: "",
          error: `from ${peer.name}: ${(e as Error).message}`,
          durationMs: performance.now() - t0,
        };
      }
      const { status, body: text } = parseCurlOutput(r.stdout);
      const error =
        status === null
          ? r.stderr.trim() || (r.timedOut ? `no answer within ${timeoutMs} ms` : `curl exited ${r.code}`)
          : null;
      return { status, body: text, error: error && `from ${peer.name}: ${error}`, durationMs: performance.now() - t0 };
    },
    stream: (path, body, timeoutMs) => streamFromPeer(peer, join(url, path), body, headers, timeoutMs),
  };
}

/** TLS over the forwarded stream: the url's name for SNI and the certificate check (system CAs, or `ca`). */
function tlsOver(stream: Duplex, servername: string, ca: string | undefined, timeoutMs: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({ socket: stream, servername, ...(ca ? { ca } : {}), ALPNProtocols: ["http/1.1"] });
    const timer = setTimeout(() => {
      tls.destroy();
      reject(new Error(`no TLS handshake with ${servername} within ${timeoutMs} ms through the tunnel`));
    }, timeoutMs);
    tls.once("secureConnect", () => {
      clearTimeout(timer);
      resolve(tls);
    });
    tls.once("error", (e) => {
      clearTimeout(timer);
      stream.destroy();
      reject(
        new Error(
          `TLS with ${servername} through the tunnel failed: ${e.message}; the endpoint's certificate must name ${servername} and be signed by a CA this machine trusts (NODE_EXTRA_CA_CERTS adds one)`,
        ),
      );
    });
  });
}

/** HTTP/1.1 (over TLS for https://) on a stream the serving host opened to the url's own address (not localhost). */
export function tunnelRoute(
  viaName: string,
  forwardRaw: (host: string, port: number, timeoutMs: number) => Promise<Duplex>,
  url: string,
  headers: Record<string, string>,
  tls: { ca?: string } = {},
): Route {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  // The bearer token must never cross in clear: an https url gets TLS end to end, checked against its name.
  const forward =
    u.protocol === "https:"
      ? async (host: string, p: number, ms: number) =>
          tlsOver(await forwardRaw(host, p, ms), u.hostname, tls.ca, 20_000)
      : forwardRaw;
  return {
    via: `SSH tunnel through ${viaName}`,
    fromPeer: false,
    async send(method, path, body, timeoutMs) {
      const t0 = performance.now();
      const done = (status: number | null, text: string, error: string | null): HttpResult => ({
        status,
        body: text,
        error,
        durationMs: performance.now() - t0,
      });
      let stream: Duplex;
      // the stream's opening counts against the request's time too: it has no deadline of its own
      try {
        stream = await forward(u.hostname, port, timeoutMs);
      } catch (e) {
        return done(null, "", (e as Error).message);
      }
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise<HttpResult>((resolve) => {
        const timer = setTimeout(() => {
          req.destroy();
          stream.destroy();
          resolve(done(null, "", `no answer within ${timeoutMs} ms through the tunnel`));
        }, timeoutMs);
        const req = httpRequest(
          {
            method,
            host: u.hostname,
            port,
            path: join(u.pathname === "/" ? "" : u.pathname, path),
            createConnection: () => stream as never,
            headers: {
              ...headers,
              ...(payload === undefined
                ? {}
                : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              clearTimeout(timer);
              stream.end();
              resolve(done(res.statusCode ?? null, Buffer.concat(chunks).toString("utf8"), null));
            });
          },
        );
        req.on("error", (e) => {
          clearTimeout(timer);
          resolve(done(null, "", `through the tunnel: ${e.message}`));
        });
        req.end(payload);
      });
    },
    async stream(path, body, timeoutMs) {
      let stream: Duplex;
      try {
        stream = await forward(u.hostname, port, timeoutMs);
      } catch (e) {
        return { status: null, events: [], wallMs: 0, error: (e as Error).message };
      }
      return streamThroughTunnel(stream, u, join(u.pathname === "/" ? "" : u.pathname, path), body, headers, timeoutMs);
    },
  };
}
