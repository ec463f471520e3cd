// Kubernetes output pasted with an engine's log: each case is the shape kubectl prints (get pods columns,
// describe pod's State/Last State and Events table, get events rows), with the kubelet's and the scheduler's
// event wordings (kubernetes pkg/kubelet/images "Failed to pull image", kuberuntime "Back-off restarting failed
// container", the noderesources plugin's "Insufficient <resource>").
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { kubeOf } from "../../../src/domain/diagnosis/kube.js";

const GET_PODS = (status: string, restarts = "4 (32s ago)") =>
  [
    "$ kubectl get pods",
    "NAME                            READY   STATUS             RESTARTS      AGE",
    `vllm-qwen-7d9f8b6c4-x2x9k       0/1     ${status.padEnd(18)} ${restarts}   6m12s`,
  ].join("\n");

const DESCRIBE = (lastReason: string, exit: number, events: string[]) =>
  [
    "Name:             vllm-qwen-7d9f8b6c4-x2x9k",
    "Namespace:        default",
    "Containers:",
    "  vllm:",
    "    Image:          registry.example.com/vllm/vllm-openai:v0.11.0",
    "    State:          Waiting",
    "      Reason:       CrashLoopBackOff",
    "    Last State:     Terminated",
    `      Reason:       ${lastReason}`,
    `      Exit Code:    ${exit}`,
    "      Started:      Tue, 01 Dec 2026 10:00:00 +0000",
    "    Ready:          False",
    "    Restart Count:  4",
    "Events:",
    "  Type     Reason     Age                  From               Message",
    "  ----     ------     ----                 ----               -------",
    "  Normal   Scheduled  6m                   default-scheduler  Successfully assigned default/vllm-qwen-7d9f8b6c4-x2x9k to gpu-node-1",
    ...events,
  ].join("\n");

describe("Kubernetes output", () => {
  it("get pods: OOMKilled is the container's memory limit, CrashLoopBackOff a crash loop, ImagePullBackOff the image", () => {
    const oom = explain(GET_PODS("OOMKilled"));
    expect(oom.class).toBe("oom");
    expect(oom.decisive).toContain("OOMKilled");
    expect(oom.fix).toContain("resources.limits.memory");
    expect(explain(GET_PODS("CrashLoopBackOff")).class).toBe("crash-loop");
    expect(explain(GET_PODS("Error", "2")).class).toBe("crash-loop");
    const pull = explain(GET_PODS("ImagePullBackOff", "0"));
    expect(pull.class).toBe("runtime-error");
    expect(pull.decisive).toContain("ImagePullBackOff");
    expect(explain(GET_PODS("Running", "0")).class).not.toBe("crash-loop");
  });

  it("describe pod: Last State's OOMKilled outranks State's CrashLoopBackOff and the BackOff event", () => {
    const r = explain(
      DESCRIBE("OOMKilled", 137, [
        "  Warning  BackOff    12s (x25 over 5m)    kubelet            Back-off restarting failed container vllm in pod vllm-qwen-7d9f8b6c4-x2x9k_default(0c1d)",
      ]),
    );
    expect(r.class).toBe("oom");
    expect(r.decisive).toMatch(/Reason:\s+OOMKilled/);
  });

  it("describe pod: an exit with Error is a crash loop whose fix says to read the previous run's log", () => {
    const r = explain(
      DESCRIBE("Error", 1, [
        "  Warning  BackOff    12s (x25 over 5m)    kubelet            Back-off restarting failed container vllm in pod x_default(0c1d)",
      ]),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.fix).toContain("kubectl logs POD --previous");
  });

  it("the container's own traceback pasted with describe pod outranks the restart pattern", () => {
    const log = [
      "(EngineCore_DP0 pid=1) ERROR 12-01 10:00:59 [core.py:708] ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.50 GiB). Based on the available memory, the estimated maximum model length is 77824. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
      DESCRIBE("Error", 1, []),
    ].join("\n");
    expect(explain(log).class).toBe("kv-insufficient");
  });

  it("describe pod Events and get events: FailedScheduling for GPUs, a failed pull with its image, a missing secret", () => {
    const sched = explain(
      [
        "LAST SEEN   TYPE      REASON             OBJECT                          MESSAGE",
        "3m          Normal    SuccessfulCreate   replicaset/vllm-qwen-7d9f8b6c4  Created pod: vllm-qwen-7d9f8b6c4-x2x9k",
        "2m          Warning   FailedScheduling   pod/vllm-qwen-7d9f8b6c4-x2x9k   0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
      ].join("\n"),
    );
    expect(sched.class).toBe("runtime-error");
    expect(sched.decisive).toContain("Insufficient nvidia.com/gpu");
    expect(sched.fix).toContain('resources.limits["nvidia.com/gpu"]');

    const pull = explain(
      DESCRIBE("Error", 1, [
        '  Normal   Pulling    2m (x4 over 4m)      kubelet            Pulling image "registry.example.com/vllm/vllm-openai:v9.9"',
        '  Warning  Failed     2m (x4 over 4m)      kubelet            Failed to pull image "registry.example.com/vllm/vllm-openai:v9.9": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/vllm/vllm-openai:v9.9": not found',
        "  Warning  Failed     2m (x4 over 4m)      kubelet            Error: ErrImagePull",
        '  Normal   BackOff    90s (x6 over 4m)     kubelet            Back-off pulling image "registry.example.com/vllm/vllm-openai:v9.9"',
      ]).replace("CrashLoopBackOff", "ImagePullBackOff"),
    );
    expect(pull.class).toBe("runtime-error");
    expect(pull.decisive).toContain("Failed to pull image");
    expect(pull.summary).toContain("registry.example.com/vllm/vllm-openai:v9.9");

    const secret = explain(
      '  Warning  Failed     10s (x3 over 30s)    kubelet            Error: secret "hf-token" not found',
    );
    expect(secret.class).toBe("runtime-error");
    expect(secret.fix).toContain("secret hf-token");
  });

  it("an eviction: memory pressure is host RAM, a full disk (the model download) is the pod's storage", () => {
    const mem = explain(
      "  Warning  Evicted    2m    kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container vllm was using 31457280Ki, which exceeds its request of 8Gi.",
    );
    expect(mem.class).toBe("oom");
    expect(mem.summary).toContain("host RAM");
    const disk = explain(
      "  Warning  Evicted    2m    kubelet  The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi. Container vllm was using 60Gi, which exceeds its request of 0.",
    );
    expect(disk.class).toBe("runtime-error");
    expect(disk.fix).toContain("volume");
    expect(explain(GET_PODS("Evicted", "0")).class).toBe("runtime-error");
    const described = explain(
      [
        "Status:           Failed",
        "Reason:           Evicted",
        "Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki.",
      ].join("\n"),
    );
    expect(described.class).toBe("oom");
  });

  it("reads nothing into engine lines, prose or a table of other numbers", () => {
    for (const line of [
      "(APIServer pid=1) WARNING 12-01 10:00:00 [api_server.py:1] Reason: unknown",
      'INFO:     10.0.0.1:5000 - "GET /v1/models HTTP/1.1" 200 OK',
      "Processed prompts: 100%|██████████| 10/10 [00:01<00:00,  9.1it/s]",
      "The Reason: Error was that nothing happened",
    ])
      expect(kubeOf(line), line).toBeNull();
  });
});
