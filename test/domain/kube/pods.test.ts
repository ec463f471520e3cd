// The facts of a Kubernetes pod, read from `kubectl get pods -o json` and `kubectl get events -o json`
// in every fixture shape (test/fixtures/kubectl/SOURCES.md: written to kubectl 1.30's output).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEvents, parsePods, validSelector } from "../../../src/domain/kube/pods.js";

const fx = (f: string) => readFileSync(`test/fixtures/kubectl/${f}`, "utf8");

describe("kubectl pod facts", () => {
  it("a ready pod: the named container's args, env (values only where literal), restarts, digest and start", () => {
    const [p] = parsePods(fx("pods-ready.json"), "vllm");
    expect(p).toMatchObject({
      name: "chat-7d9c5b6f4-x2x9q",
      phase: "Running",
      ready: true,
      node: "gpu-node-2",
      createdAt: "2026-12-03T02:40:11Z",
      container: {
        name: "vllm",
        args: [
          "--model=Qwen/Qwen3-8B",
          "--served-model-name=qwen",
          "--max-model-len=32768",
          "--reasoning-parser=qwen3",
          "--enable-auto-tool-choice",
          "--tool-call-parser=hermes",
        ],
        restartCount: 0,
        imageDigest: "sha256:" + "4c1e".repeat(16),
        startedAt: "2026-12-03T02:40:13Z",
        waiting: null,
        lastTerminated: null,
      },
    });
    expect(p!.container!.env).toEqual([
      { name: "VLLM_USE_V1", value: "1" },
      { name: "HF_TOKEN", value: null, from: "secretKeyRef hf/token" },
      { name: "VLLM_API_KEY", value: "sk-pod-literal-0e9d" },
    ]);
  });

  it("an OOM-killed container in CrashLoopBackOff: its restarts, waiting reason and last termination", () => {
    const [p] = parsePods(fx("pods-oom.json"), "vllm");
    expect(p!.ready).toBe(false);
    expect(p!.container).toMatchObject({
      restartCount: 3,
      waiting: { reason: "CrashLoopBackOff" },
      lastTerminated: { reason: "OOMKilled", exitCode: 137, finishedAt: "2026-12-03T02:47:31Z" },
      startedAt: null,
    });
  });

  it("a pull that fails has no digest; an unschedulable pod has no container status, only its condition", () => {
    const [pull] = parsePods(fx("pods-pull.json"), "vllm");
    expect(pull!.container).toMatchObject({ imageDigest: null, waiting: { reason: "ImagePullBackOff" } });
    const [pend] = parsePods(fx("pods-pending.json"), "vllm");
    expect(pend).toMatchObject({ phase: "Pending", ready: false, node: null });
    expect(pend!.container).toMatchObject({ restartCount: 0, startedAt: null, args: expect.any(Array) });
    expect(pend!.unschedulable).toMatch(/3 Insufficient nvidia\.com\/gpu/);
  });

  it("a container name not in the pod is no container, named with the ones it has", () => {
    const [p] = parsePods(fx("pods-ready.json"), "engine");
    expect(p!.container).toBeNull();
    expect(p!.containers).toEqual(["vllm", "metrics-sidecar"]);
  });

  it("events: reason, type, message, count, last time, oldest first", () => {
    expect(parseEvents(fx("events-pending.json"))).toEqual([
      {
        type: "Warning",
        reason: "FailedScheduling",
        message: expect.stringMatching(/^0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu\./),
        count: 1,
        at: "2026-12-03T02:40:11Z",
      },
    ]);
    expect(parseEvents(fx("events-oom.json")).map((e) => e.reason)).toEqual([
      "Pulled",
      "Created",
      "Started",
      "BackOff",
    ]);
  });

  it("refuses text that is no kubectl JSON list, and selectors outside the label grammar", () => {
    expect(() => parsePods("error: You must be logged in to the server (Unauthorized)", "vllm")).toThrow(
      /not kubectl's JSON/,
    );
    for (const ok of [
      "app=chat",
      "app=chat,pod-template-hash=7d9c5b6f4",
      "app.kubernetes.io/name=vllm",
      "tier!=cpu",
      "app in (chat,code)",
    ])
      expect(validSelector(ok), ok).toBe(true);
    for (const bad of ["", "app=chat;rm -rf /", "$(id)", "app=chat --all-namespaces", "a=" + "x".repeat(300)])
      expect(validSelector(bad), bad).toBe(false);
  });
});
