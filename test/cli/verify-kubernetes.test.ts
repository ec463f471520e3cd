// verify over HTTP alone with kubernetes: on the endpoint: the engine double on loopback answers HTTP,
// a kubectl-shaped stub on PATH answers what the API server would (the fixtures in test/fixtures/kubectl,
// written to kubectl 1.30's output). No API server runs here; the stub records every argv it got.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main, type Io } from "../../src/cli/main.js";
import type { Report } from "../../src/domain/report/finding.js";
import { engineDoubles } from "../helpers/engine-double.js";
import { stubBins } from "../helpers/stub-bin.js";

const doubles = engineDoubles();
const dirs: string[] = [];
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});
afterAll(() => {
  doubles.stopAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const bins = stubBins("dg-kubectl-");
const FX = resolve("test/fixtures/kubectl");

/** kubectl as the API server would answer: pods, events and logs from the fixtures; each argv logged. */
function kubectlStub(pods: string, events: string, log: string): { calls: () => string[][] } {
  const calls = join(mkdtempSync(join(tmpdir(), "dg-kcalls-")), "calls");
  dirs.push(calls.slice(0, -6));
  const bin = bins({
    kubectl: `for a in "$@"; do printf '%s\\n' "$a"; done >> '${calls}'; echo --- >> '${calls}'
case "$2 $3" in
  "get pods") cat '${FX}/${pods}' ;;
  "get events") cat '${FX}/${events}' ;;
  *) case "$*" in *--previous*) cat '${FX}/${log}' ;; *) echo "unexpected: $*" >&2; exit 1 ;; esac ;;
esac`,
  });
  process.env.PATH = `${bin}:${PATH}`;
  return {
    calls: () =>
      readFileSync(calls, "utf8")
        .split("---\n")
        .filter(Boolean)
        .map((c) => c.trim().split("\n")),
  };
}

async function verify(url: string, selector?: string, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "dg-k8s-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "chat.yaml"),
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: chat }\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          args: ["--model=Qwen/Qwen3-8B", "--served-model-name=qwen", "--max-model-len=32768", "--reasoning-parser=qwen3", "--enable-auto-tool-choice", "--tool-call-parser=hermes"]\n`,
  );
  writeFileSync(
    join(dir, "deploy-gate.yml"),
    `version: 1\nendpoints:\n  chat:\n    script: serve.sh\n    url: ${url}\n    model: qwen\n    kubernetes: { namespace: llm, selector: app=chat, container: vllm, manifest: chat.yaml }\n    contracts:\n      env: [VLLM_USE_V1]\n`,
  );
  let out = "";
  const io: Io = { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: dir };
  const code = await main(["verify", "--json", ...(selector ? ["--selector", selector] : []), ...extra], io);
  const report = JSON.parse(out) as Report;
  return { code, report, f: Object.fromEntries(report.findings.map((x) => [x.check, x])) };
}

describe("verify with kubernetes: (kubectl stub on PATH)", () => {
  it("a ready pod: restarts, container, argv against the manifest and env pass; the host-only rest skip", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const k = kubectlStub("pods-ready.json", "events-oom.json", "logs-previous.txt");
    const { code, f } = await verify(url, "app=chat,pod-template-hash=7d9c5b6f4");
    for (const c of ["verify.restarts", "verify.container", "verify.argv", "verify.env"])
      expect(f[c]?.status, `${c}: ${f[c]?.summary}`).toBe("pass");
    expect(f["verify.vram"]!.status).toBe("skip");
    expect(f["deploy.diagnosis"]).toBeUndefined();
    expect(code).toBe(0);
    // one argument per value, the selector from --selector, a deadline on the call
    expect(k.calls()[0]).toEqual([
      "--request-timeout=20s",
      "get",
      "pods",
      "--namespace",
      "llm",
      "--selector",
      "app=chat,pod-template-hash=7d9c5b6f4",
      "--output",
      "json",
    ]);
  });

  it("an OOM-killed pod: restarts fail, the diagnosis reads its previous log and its events; exit 1", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const k = kubectlStub("pods-oom.json", "events-oom.json", "logs-previous.txt");
    const { code, f, report } = await verify(url);
    expect(f["verify.restarts"]!.status).toBe("fail");
    expect(f["deploy.diagnosis"]).toMatchObject({ status: "fail", data: { class: "oom", previous: true } });
    expect(code).toBe(1);
    expect(k.calls().some((c) => c.includes("logs") && c.includes("--previous") && c.includes("--container"))).toBe(
      true,
    );
    // the pod spec's literal VLLM_API_KEY never reaches the report
    expect(JSON.stringify(report)).not.toContain("sk-pod-literal-0e9d");
  });

  it("--rollout-start: a pod whose engine started before it is the old version", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    kubectlStub("pods-ready.json", "events-oom.json", "logs-previous.txt");
    const late = await verify(url, undefined, ["--rollout-start", "2026-12-03T03:00:00Z"]);
    expect(late.f["verify.container"]!.summary).toMatch(/started 2026-12-03T02:40:13Z, before the rollout began/);
    expect(late.code).toBe(1);
    const early = await verify(url, undefined, ["--rollout-start", "@1796265000"]); // 2026-12-03T02:30:00Z
    expect(early.f["verify.container"]!.status).toBe("pass");
  });

  it("kubectl that cannot reach the API server: the pod checks could not be judged (exit 2), never pass", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    process.env.PATH = `${bins({ kubectl: 'echo "The connection to the server localhost:8080 was refused - did you specify the right host or port?" >&2; exit 1' })}:${PATH}`;
    const { code, f } = await verify(url);
    expect(f["verify.restarts"]!.summary).toMatch(/kubectl could not read the pods .*connection to the server/);
    expect(code).toBe(2);
  });

  it("a selector outside the label grammar never reaches kubectl", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const k = kubectlStub("pods-ready.json", "events-oom.json", "logs-previous.txt");
    const { code, f } = await verify(url, "app=chat;touch /tmp/x");
    expect(f["verify.container"]!.summary).toMatch(/is not a label selector/);
    expect(code).toBe(2);
    expect(() => k.calls()).toThrow(); // no call was made: the calls file was never written
  });
});
