// `deploy-gate webhook`: Flagger's pre-rollout / rollout webhook served on loopback, called with real HTTP
// requests in Flagger's payload shape, verifying the engine double (also on loopback) over HTTP alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCli } from "../../../src/cli/args.js";
import type { Options } from "../../../src/commands/options.js";
import { webhookCommand } from "../../../src/commands/webhook/command.js";
import { parseConfig } from "../../../src/domain/config/load.js";
import { startWebhook, type Webhook } from "../../../src/commands/webhook/server.js";
import { closedPort } from "../../helpers/closed-port.js";
import { engineDoubles } from "../../helpers/engine-double.js";
import { stubBins } from "../../helpers/stub-bin.js";
import { until } from "../../helpers/until.js";

const doubles = engineDoubles();
const hooks: Webhook[] = [];
afterAll(async () => {
  doubles.stopAll();
  await Promise.all(hooks.map((h) => h.close()));
});

const KEY = "sk-hook-51c0ffee";
const config = (endpoints: Record<string, { url: string; extra?: string }>) =>
  parseConfig(
    `version: 1\nendpoints:\n${Object.entries(endpoints)
      .map(([n, e]) => `  ${n}:\n    script: serve.sh\n    url: ${e.url}\n    model: qwen\n${e.extra ?? ""}`)
      .join("")}`,
    "deploy-gate.yml",
  );
async function hook(endpoints: Parameters<typeof config>[0], opts: { limit?: number; deadlineMs?: number } = {}) {
  const h = await startWebhook({
    config: config(endpoints),
    listen: "127.0.0.1:0",
    env: { DEPLOY_GATE_API_KEY: KEY },
    limit: opts.limit ?? 4,
    deadlineMs: opts.deadlineMs ?? 60_000,
    namespaces: ["llm"],
    log: () => {},
  });
  hooks.push(h);
  return h;
}
const flagger = (metadata: Record<string, string> = {}) =>
  JSON.stringify({ name: "chat", namespace: "llm", phase: "Progressing", checksum: "x1", metadata });
const post = (url: string, body: string) =>
  fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    text: await r.text(),
  }));

describe("deploy-gate webhook (Flagger)", () => {
  it("200 when verify passes; an error status naming the failing checks otherwise; no secret in either", async () => {
    const good = await doubles.start(["--max-model-len", "8192", "--api-key", KEY, "--reasoning-parser", "qwen3"]);
    const bad = await doubles.start(["--max-model-len", "8192", "--api-key", KEY]);
    const thinking = "    contracts:\n      thinking: true\n";
    const h = await hook({ good: { url: good, extra: thinking }, bad: { url: bad, extra: thinking } });
    const ok = await post(h.url, flagger({ endpoint: "good" }));
    expect(ok.status, ok.text).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ verdict: "pass", endpoint: "good", canary: "llm/chat" });
    const no = await post(h.url, flagger({ endpoint: "bad" }));
    expect(no.status).toBe(412);
    const body = JSON.parse(no.text) as { verdict: string; failed: { check: string; fix?: string }[] };
    expect(body.verdict).toBe("fail");
    expect(body.failed.map((f) => f.check)).toEqual(["verify.thinking"]);
    expect(ok.text + no.text).not.toContain(KEY);
  });

  it("a clear 400 for a malformed body or an unknown endpoint, 405 for another method, 413 past 64 KiB", async () => {
    const h = await hook({ a: { url: "http://127.0.0.1:9" }, b: { url: "http://127.0.0.1:9" } });
    const notJson = await post(h.url, "{");
    expect(notJson.status).toBe(400);
    expect(notJson.text).toMatch(/the body is not JSON/);
    expect((await post(h.url, JSON.stringify({ name: "A/B", namespace: "llm", phase: "x" }))).text).toMatch(
      /name: expected a Kubernetes name/,
    );
    const which = await post(h.url, flagger());
    expect(which.status).toBe(400);
    expect(which.text).toMatch(/metadata\.endpoint: name one of a, b/);
    expect((JSON.parse((await post(h.url, flagger({ endpoint: "zz" }))).text) as { error: string }).error).toMatch(
      /metadata\.endpoint "zz" is not in the config/,
    );
    expect((await fetch(h.url, { method: "PUT", body: "{}" })).status).toBe(405);
    expect((await post(h.url, `{"name":"${"a".repeat(70_000)}"}`)).status).toBe(413);
    expect((await fetch(h.url.replace(/\/$/, "/healthz"))).status).toBe(200);
  });

  it("an endpoint that does not answer: 503, the gate could not judge", async () => {
    const h = await hook({ a: { url: `http://127.0.0.1:${await closedPort()}` } });
    const r = await post(h.url, flagger());
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toMatchObject({ verdict: "undecided" });
  });

  it("a password in the config's url never comes back in the answer", async () => {
    const url = `http://dg:s3cr3t-pw@127.0.0.1:${await closedPort()}`;
    // the config refuses it, saying where the key goes
    expect(() => config({ a: { url } })).toThrow(/must not carry a user or password: put .* DEPLOY_GATE_API_KEY/);
    // and an endpoint that reaches the webhook with one anyway (built in code) is not echoed
    const h = await startWebhook({
      config: {
        ...config({ a: { url: "http://127.0.0.1:9" } }),
        endpoints: { a: { ...config({ a: { url: "http://127.0.0.1:9" } }).endpoints.a!, url } },
      },
      listen: "127.0.0.1:0",
      env: {},
      limit: 1,
      deadlineMs: 30_000,
      namespaces: null,
      log: () => {},
    });
    hooks.push(h);
    const r = await post(h.url, flagger());
    expect(r.status).toBe(503);
    expect(r.text).not.toContain("s3cr3t-pw");
  });

  it("a deadline per call (504), and bounded concurrency: past the limit 503 with Retry-After at once", async () => {
    const hung = await doubles.start(["--max-model-len", "8192", "--api-key", KEY], { FAKE_BREAK: "wedged" });
    const h = await hook({ a: { url: hung } }, { limit: 1, deadlineMs: 1500 });
    const first = post(h.url, flagger());
    // the first call holds the only slot until its verify ends (its own requests have deadlines)
    expect(await until(() => h.inFlight() === 1, 10_000)).toBe(true);
    // another canary (the same one would share the running verify)
    const second = await post(h.url, JSON.stringify({ name: "chat2", namespace: "llm", phase: "Progressing" }));
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("10");
    expect(second.text).toMatch(/busy: 1 verify already running/);
    // answered while the first still runs: refused at once, not queued behind it (a condition, not a timing)
    expect(h.inFlight()).toBe(1);
    const r = await first;
    expect(r.status).toBe(504);
    expect(r.text).toMatch(/verify did not finish within 1500 ms/);
  });
});

describe("deploy-gate webhook: concurrent calls for the same canary", () => {
  const promptTokens = async (url: string) =>
    Number(/^vllm:prompt_tokens_total\{[^}]*\} ([\d.]+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);

  it("share one verify: later callers get the same verdict even at the limit; another phase is not merged", async () => {
    // every completion answers after 1.5 s, so the calls overlap without racing a 12 ms verify
    const slow = await doubles.start(["--max-model-len", "8192", "--api-key", KEY], { FAKE_REPLY_DELAY_MS: "1500" });
    const h = await hook({ a: { url: slow } }, { limit: 1 });
    const before = await promptTokens(slow);
    const single = await post(h.url, flagger());
    expect(single.status, single.text).toBe(200);
    const one = (await promptTokens(slow)) - before;
    expect(one).toBeGreaterThan(0);

    const first = post(h.url, flagger());
    expect(await until(() => h.inFlight() === 1, 10_000)).toBe(true);
    const joining = Promise.all([post(h.url, flagger()), post(h.url, flagger())]);
    // same name and namespace, another phase: its own verify, and the only slot is taken
    const other = await post(h.url, JSON.stringify({ name: "chat", namespace: "llm", phase: "Promoting" }));
    expect(other.status, other.text).toBe(503);
    expect(h.inFlight()).toBe(1);
    const joined = await joining;
    const lead = await first;
    expect(lead.status, lead.text).toBe(200);
    for (const j of joined) {
      expect(j.status, j.text).toBe(200);
      const b = JSON.parse(j.text) as { verdict: string; merged?: boolean; durationMs: number };
      expect(b).toMatchObject({ verdict: "pass", merged: true });
      expect(b.durationMs).toBe((JSON.parse(lead.text) as { durationMs: number }).durationMs);
    }
    // the engine saw one verify's requests for the three calls
    expect((await promptTokens(slow)) - before).toBe(2 * one);
  });

  it("a caller that joins keeps the first call's deadline: both answer 504 when it passes", async () => {
    const hung = await doubles.start(["--max-model-len", "8192", "--api-key", KEY], { FAKE_BREAK: "wedged" });
    const h = await hook({ a: { url: hung } }, { limit: 1, deadlineMs: 2000 });
    const t0 = Date.now();
    const first = post(h.url, flagger());
    expect(await until(() => h.inFlight() === 1, 10_000)).toBe(true);
    const joined = await post(h.url, flagger());
    expect(joined.status).toBe(504);
    expect(joined.text).toMatch(/verify did not finish within 2000 ms/);
    expect((await first).status).toBe(504);
    // the joiner waited for the first call's deadline, not a fresh one of its own (generous slack for a busy machine)
    expect(Date.now() - t0).toBeLessThan(2000 + 1800);
  });
});

describe("deploy-gate webhook, the namespaces it may judge", () => {
  it("a config filling {namespace} from the payload needs --namespaces; a canary elsewhere gets 403 and no request", async () => {
    let asked = 0;
    const { createServer } = await import("node:http");
    const engine = createServer((_q, r) => (asked++, r.end("{}")));
    await new Promise<void>((r) => engine.listen(0, "127.0.0.1", r));
    try {
      const port = (engine.address() as { port: number }).port;
      // {name} and {namespace} would send the API key to any Service a caller names
      const cfg = config({ a: { url: `http://127.0.0.{namespace}:${port}` } });
      const base = {
        config: cfg,
        listen: "127.0.0.1:0",
        env: { DEPLOY_GATE_API_KEY: KEY },
        limit: 1,
        deadlineMs: 30_000,
        log: () => {},
      };
      await expect(startWebhook({ ...base, namespaces: null })).rejects.toThrow(/--namespaces NS\[,NS\]/);
      const h = await startWebhook({ ...base, namespaces: ["1"] });
      hooks.push(h);
      const r = await post(h.url, JSON.stringify({ name: "chat", namespace: "2", phase: "Progressing" }));
      expect(r.status).toBe(403);
      expect(r.text).toMatch(/namespace 2 is not one this webhook judges \(--namespaces 1\)/);
      expect(asked).toBe(0);
      const ok = await post(h.url, JSON.stringify({ name: "chat", namespace: "1", phase: "Progressing" }));
      expect(ok.status).not.toBe(403);
      expect(asked).toBeGreaterThan(0);
    } finally {
      engine.close();
    }
  });
});

describe("deploy-gate webhook with kubernetes: (kubectl stub on PATH)", () => {
  const bins = stubBins("dg-hook-kubectl-");
  const PATH = process.env.PATH;
  afterEach(() => {
    process.env.PATH = PATH;
  });

  it("{name} and {namespace} in kubernetes: come from the payload; an OOM-killed canary answers 412 with the diagnosis", async () => {
    const url = await doubles.start(["--max-model-len", "8192", "--api-key", KEY]);
    const calls = join(mkdtempSync(join(tmpdir(), "dg-hook-calls-")), "calls");
    const fx = resolve("test/fixtures/kubectl");
    process.env.PATH = `${bins({
      kubectl: `printf '%s ' "$@" >> '${calls}'; echo >> '${calls}'
case "$2 $3" in
  "get pods") cat '${fx}/pods-oom.json' ;;
  "get events") cat '${fx}/events-oom.json' ;;
  *) cat '${fx}/logs-previous.txt' ;;
esac`,
    })}:${PATH}`;
    const kube = '    kubernetes: { namespace: "{namespace}", selector: "app={name}", container: vllm }\n';
    const h = await hook({ chat: { url, extra: kube } });
    const r = await post(h.url, flagger());
    expect(r.status, r.text).toBe(412);
    const body = JSON.parse(r.text) as { failed: { check: string; summary: string }[] };
    expect(body.failed.map((f) => f.check)).toEqual(expect.arrayContaining(["verify.restarts", "deploy.diagnosis"]));
    expect(body.failed.find((f) => f.check === "deploy.diagnosis")!.summary).toMatch(/GPU out of memory/);
    expect(readFileSync(calls, "utf8")).toMatch(/get pods --namespace llm --selector app=chat --output json/);
    expect(r.text).not.toContain("sk-pod-literal-0e9d");
  });
});

describe("deploy-gate webhook, the verb", () => {
  it("listens on --listen until the run is aborted, with the config's endpoints; refuses a missing --listen or config", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-hook-"));
    try {
      const url = await doubles.start(["--max-model-len", "8192"]);
      writeFileSync(
        join(dir, "deploy-gate.yml"),
        `version: 1\nendpoints:\n  chat:\n    script: s.sh\n    url: ${url}\n`,
      );
      let err = "";
      const io = { out: () => {}, err: (s: string) => (err += s), isTTY: false, env: {}, cwd: dir };
      const stop = new AbortController();
      const opts = parseCli(["webhook", "--listen", "127.0.0.1:0", "--deadline", "30s"], dir) as Options;
      const running = webhookCommand(opts, io, stop.signal);
      expect(await until(() => /listening on (\S+)/.test(err), 10_000)).toBe(true);
      const at = /listening on (\S+)/.exec(err)![1]!;
      const r = await post(at, flagger());
      expect(r.status, r.text).toBe(200);
      stop.abort();
      expect(await running).toBe(0);
      await expect(fetch(at)).rejects.toThrow();
      await expect(webhookCommand(parseCli(["webhook"], dir) as Options, io, stop.signal)).rejects.toThrow(
        /webhook needs --listen HOST:PORT/,
      );
      const elsewhere = parseCli(["webhook", "--listen", ":0", "--config", "none.yml"], dir) as Options;
      await expect(webhookCommand(elsewhere, io, stop.signal)).rejects.toThrow(/none\.yml does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
