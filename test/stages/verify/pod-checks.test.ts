// verify's checks from a pod's facts (kubectl's JSON, test/fixtures/kubectl/) in place of the host's:
// restarts, the container (ready, digest, started after the rollout began), live args against the
// repository's manifest, env; and the diagnosis from the previous container's log and the pod's events.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEvents, parsePods } from "../../../src/domain/kube/pods.js";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import {
  diagnosePods,
  manifestArgs,
  podArgv,
  podContainer,
  podEnv,
  podRestarts,
} from "../../../src/stages/verify/pod-checks.js";

const fx = (f: string) => readFileSync(`test/fixtures/kubectl/${f}`, "utf8");
const pods = (f: string) => parsePods(fx(f), "vllm");
const contracts = (c: object = {}) => endpointSchema.parse({ script: "s.sh", contracts: c }).contracts;
const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata: { name: chat }
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.11.0
          args:
            - --model=Qwen/Qwen3-8B
            - --served-model-name=qwen
            - --max-model-len=32768
            - --reasoning-parser=qwen3
            - --enable-auto-tool-choice
            - --tool-call-parser=hermes
`;

describe("verify from a pod's facts", () => {
  it("restarts: 0 passes; an OOM-killed crash loop fails with its reason and exit code", () => {
    expect(podRestarts(pods("pods-ready.json"), 0).status).toBe("pass");
    const f = podRestarts(pods("pods-oom.json"), 0);
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(
      /chat-7d9c5b6f4-x2x9q: vllm restarted 3 time\(s\) \(contracts\.restarts 0\); last exit OOMKilled \(137\)/,
    );
  });

  it("container: ready with its digest and start; ImagePullBackOff, an unschedulable pod and no pod at all fail", () => {
    const ok = podContainer(pods("pods-ready.json"), "app=chat", null);
    expect(ok.status).toBe("pass");
    expect(ok.evidence!.join("\n")).toMatch(/sha256:4c1e/);
    expect(podContainer(pods("pods-pull.json"), "app=chat", null).summary).toMatch(/waiting: ImagePullBackOff/);
    const pend = podContainer(pods("pods-pending.json"), "app=chat", null);
    expect(pend.summary).toMatch(/not scheduled: 0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu/);
    expect(pend.fix).toMatch(/nvidia\.com\/gpu/);
    // the fixes are the diagnosis's (kube-advice.ts), not a second table
    expect(pend.fix).toMatch(/device plugin/);
    expect(podContainer(pods("pods-pull.json"), "app=chat", null).fix).toMatch(/tag must exist in the registry/);
    expect(podContainer([], "app=chat", null).summary).toMatch(/no pod matches app=chat/);
  });

  it("container: a pod started before the rollout began is the old one", () => {
    const f = podContainer(pods("pods-ready.json"), "app=chat", Date.parse("2026-12-03T03:00:00Z"));
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/started 2026-12-03T02:40:13Z, before the rollout began \(2026-12-03T03:00:00.000Z\)/);
    expect(podContainer(pods("pods-ready.json"), "app=chat", Date.parse("2026-12-03T02:30:00Z")).status).toBe("pass");
  });

  it("argv: the live args against the manifest's, drift listed flag by flag, and the contract flags", () => {
    const want = manifestArgs(MANIFEST, "vllm");
    expect(want).toHaveLength(6);
    expect(
      podArgv(pods("pods-ready.json"), want, "k8s/chat.yaml", contracts({ flags: ["--reasoning-parser qwen3"] }))
        .status,
    ).toBe("pass");
    const drifted = manifestArgs(MANIFEST.replace("--max-model-len=32768", "--max-model-len=65536"), "vllm");
    const f = podArgv(pods("pods-ready.json"), drifted, "k8s/chat.yaml", contracts());
    expect(f.status).toBe("fail");
    expect(f.evidence!.join("\n")).toMatch(/--max-model-len: live 32768, k8s\/chat\.yaml 65536/);
    const missing = podArgv(pods("pods-ready.json"), null, null, contracts({ flags: ["--kv-cache-dtype fp8"] }));
    expect(missing.status).toBe("fail");
    expect(missing.summary).toMatch(/--kv-cache-dtype fp8/);
  });

  it("env: declared names present; values of secret-looking names never shown", () => {
    expect(podEnv(pods("pods-ready.json"), contracts({ env: ["VLLM_USE_V1", "HF_TOKEN"] })).status).toBe("pass");
    const f = podEnv(pods("pods-ready.json"), contracts({ env: ["VLLM_ATTENTION_BACKEND"] }));
    expect(f.status).toBe("fail");
    expect(JSON.stringify(podEnv(pods("pods-ready.json"), contracts({ env: ["VLLM_API_KEY"] })))).not.toContain(
      "sk-pod-literal-0e9d",
    );
  });

  it("diagnosis: the previous container's log through the journal's classes, the events' decisive line", () => {
    const oom = diagnosePods(pods("pods-oom.json"), {
      logs: fx("logs-previous.txt"),
      events: parseEvents(fx("events-oom.json")),
    });
    expect(oom).not.toBeNull();
    expect(oom!.data).toMatchObject({ class: "oom", pod: "chat-7d9c5b6f4-x2x9q", previous: true });
    expect(oom!.summary).toMatch(/GPU out of memory/);
    expect(oom!.evidence!.join("\n")).toMatch(/BackOff x7: Back-off restarting failed container vllm/);
    const pend = diagnosePods(pods("pods-pending.json"), { logs: "", events: parseEvents(fx("events-pending.json")) });
    expect(pend!.summary).toMatch(/no node can take the pod: not enough nvidia\.com\/gpu/);
    expect(pend!.evidence![0]).toMatch(/FailedScheduling: 0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu/);
    expect(diagnosePods(pods("pods-ready.json"), { logs: "", events: [] })).toBeNull();
  });

  it("diagnosis: the pod's statuses and events go through the same classes and advice as kubectl's text", () => {
    // OOMKilled (lastState.terminated, exit 137) with no log: the memory-limit class and its fix, not a bare reason
    const oom = diagnosePods(pods("pods-oom.json"), { logs: "", events: parseEvents(fx("events-oom.json")) });
    expect(oom!.data).toMatchObject({ class: "oom", layer: "kubernetes" });
    expect(String(oom!.data!.decisive)).toMatch(/last terminated: OOMKilled \(exit 137\)/);
    expect(oom!.summary).toMatch(/memory limit/);
    expect(oom!.fix).toMatch(/resources\.limits\.memory/);
    // FailedScheduling Insufficient nvidia.com/gpu: the GPU fix (device plugin, the GPU limit)
    const pend = diagnosePods(pods("pods-pending.json"), { logs: "", events: parseEvents(fx("events-pending.json")) });
    expect(pend!.data).toMatchObject({ class: "runtime-error", layer: "kubernetes" });
    expect(String(pend!.data!.decisive)).toMatch(/FailedScheduling.*Insufficient nvidia\.com\/gpu/);
    expect(pend!.fix).toMatch(/device plugin/);
    // no events read (RBAC): the PodScheduled condition's message says the same
    const cond = diagnosePods(pods("pods-pending.json"), { logs: "", events: [] });
    expect(cond!.fix).toMatch(/device plugin/);
    // state.waiting ImagePullBackOff: the image named in its message
    const pull = diagnosePods(pods("pods-pull.json"), { logs: "", events: [] });
    expect(pull!.summary).toMatch(/could not pull the image vllm\/vllm-openai:v0\.99\.0/);
    expect(pull!.fix).toMatch(/imagePullSecret/);
    // an eviction event: the node's memory, host RAM
    const evicted = diagnosePods(pods("pods-oom.json"), { logs: "", events: parseEvents(fx("events-evicted.json")) });
    expect(evicted!.summary).toMatch(/node ran low on memory/);
  });

  it("diagnosis: the previous log decides when it names a deeper cause, not when it only says the engine died", () => {
    const events = parseEvents(fx("events-oom.json"));
    // CUDA OOM in the log outranks the container's restart pattern and is a cause of its own
    const gpu = diagnosePods(pods("pods-oom.json"), { logs: fx("logs-previous.txt"), events });
    expect(gpu!.summary).toMatch(/GPU out of memory/);
    // the log's last words are a wrapper ("Engine core initialization failed"): the kernel's OOM kill is the cause
    const wrapper = "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}";
    const host = diagnosePods(pods("pods-oom.json"), { logs: wrapper, events });
    expect(host!.data).toMatchObject({ class: "oom", layer: "kubernetes" });
    expect(host!.fix).toMatch(/resources\.limits\.memory/);
  });
});
