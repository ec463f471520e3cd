// Shapes found missing on the first blind run of field set C (field-logs-7), each written here in the tool's own
// wording, never copied from those logs: the kubelet's SyncResult error (`failed to "StartContainer" for "X" with
// CrashLoopBackOff: …`), systemd's `Start request repeated too quickly` and `systemctl status`'s `Main PID: N
// (code=exited, status=S)`, Ollama's `llama runner process has terminated: …` around llama.cpp's `error loading model`,
// llama.cpp's old `error: unknown argument: %s` and 2026 `done request: %s %s %s %d`, Ray's store_runner.cc warning,
// SGLang's `Initialization failed. warmup error`, the custom all-reduce's CUDACHECK `Failed: Cuda error %s:%d '%s'`,
// NCCL's p2p.cc `failed to open CUDA IPC handle`, vLLM's 2026 `Starting vLLM server on %s`.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { familyOf } from "../../../src/domain/engine/peers.js";

const CUDA_PEER = "peer access is not supported between these two devices";

describe("field set C, generalised: units and journals", () => {
  it("the kubelet's own journal line, bulleted by `minikube logs`, saying a container is in CrashLoopBackOff", () => {
    const line = (t: string, pod: string) =>
      `* Mar 03 10:00:${t} node1 kubelet[77]: E0303 10:00:${t}.000001      77 pod_workers.go:191] Error syncing pod ` +
      `abc ("${pod}_default(abc)"), skipping: failed to "StartContainer" for "web" with CrashLoopBackOff: ` +
      `"back-off 2m40s restarting failed container=web pod=${pod}_default(abc)"`;
    const r = explain([line("01", "web-1"), line("09", "web-1")].join("\n"));
    expect(r.class).toBe("crash-loop");
  });

  it("newer kubelets log the same SyncResult as a structured err= value, its quotes escaped", () => {
    const r = explain(
      'E0303 10:00:01.000001 77 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" ' +
        'for \\"web\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed container=web\\"" pod="default/web-1"',
    );
    expect(r.class).toBe("crash-loop");
  });

  it("the kubelet's SyncResult for an image pull is the pull failure, not a loop", () => {
    const r = explain(
      'E0303 10:00:01.000001 77 pod_workers.go:191] Error syncing pod abc, skipping: failed to "StartContainer" for ' +
        '"web" with ImagePullBackOff: "Back-off pulling image \\"x/y:1\\""',
    );
    expect(r.class).toBe("runtime-error");
  });

  it("a one-shot unit failing once under a localized month: the exit decides, never the traceback's frames", () => {
    const r = explain(
      [
        "Dez 05 08:00:00 host systemd[1]: Starting Nightly report...",
        "Dez 05 08:00:01 host report[42]: Traceback (most recent call last):",
        'Dez 05 08:00:01 host report[42]:   File "/usr/lib/report/run.py", line 9, in <module>',
        "Dez 05 08:00:01 host report[42]:     out = subprocess.check_output(cmd)",
        "Dez 05 08:00:01 host systemd[1]: report.service: Main process exited, code=exited, status=1/FAILURE",
        "Dez 05 08:00:01 host systemd[1]: Failed to start Nightly report.",
        "Dez 05 08:00:01 host systemd[1]: report.service: Failed with result 'exit-code'.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("status=1/FAILURE");
  });

  it("a failed exit the operator asked for (`Stopping` first) is no crash", () => {
    const r = explain(
      [
        "Mar 03 10:00:00 host systemd[1]: Stopping Frob...",
        "Mar 03 10:00:01 host systemd[1]: frob.service: Main process exited, code=exited, status=143/n/a",
        "Mar 03 10:00:01 host systemd[1]: frob.service: Failed with result 'exit-code'.",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
  });

  it("`systemctl status` in a German locale with Go panic frames: the Main PID exit is the event", () => {
    const r = explain(
      [
        "● frob.service - Frob",
        "   Loaded: loaded (/etc/systemd/system/frob.service; enabled; vendor preset: disabled)",
        "   Active: failed (Result: exit-code) since Mi 2026-10-07 09:00:00 CEST; 3min ago",
        " Main PID: 4242 (code=exited, status=2)",
        "",
        "Okt 07 09:00:00 host frob[4242]: example.com/frob/config.Load()",
        "Okt 07 09:00:00 host frob[4242]:         example.com/frob/config/config.go:12 +0x1f",
        "Okt 07 09:00:00 host frob[4242]: main.main()",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("code=exited, status=2");
    // the window starts after the unit's start: the summary counts the exit it shows, not "0 attempts"
    expect(r.summary).toContain("1 failed exit(s) shown");
  });

  it("`systemctl status` of a service that is running has no exit event in its Process: lines", () => {
    const r = explain(
      [
        "● frob.service - Frob",
        "     Active: active (running) since Wed 2026-10-07 09:00:00 UTC; 3min ago",
        "    Process: 4240 ExecStartPre=/usr/bin/mkdir -p /run/frob (code=exited, status=0/SUCCESS)",
        "   Main PID: 4242 (frob)",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
    expect(r.class).not.toBe("clean-exit");
  });

  it("`systemctl status` after `systemctl stop`: a main process ended by a signal is no crash", () => {
    const r = explain(
      [
        "● frob.service - Frob",
        "     Active: inactive (dead) since Wed 2026-10-07 09:10:00 UTC; 1min ago",
        "   Main PID: 4242 (code=killed, signal=TERM)",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
  });

  it("the start limit after the unit's own failed exits and restarts ends a crash loop", () => {
    const r = explain(
      [
        "Jul 01 09:00:00 host systemd[1]: frob.service: Main process exited, code=exited, status=1/FAILURE",
        "Jul 01 09:00:00 host systemd[1]: frob.service: Failed with result 'exit-code'.",
        "Jul 01 09:00:00 host systemd[1]: frob.service: Service hold-off time over, scheduling restart.",
        "Jul 01 09:00:00 host systemd[1]: Stopped Frob.",
        "Jul 01 09:00:00 host systemd[1]: frob.service: Start request repeated too quickly.",
        "Jul 01 09:00:00 host systemd[1]: frob.service: Failed with result 'start-limit-hit'.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
  });

  it("newer `systemctl status` (× bullet, status without a name) with a restart counter before the limit", () => {
    const r = explain(
      [
        "× frob.service",
        "     Active: failed (Result: exit-code) since Wed 2026-11-19 23:00:00 EST; 10s ago",
        "    Process: 99 ExecStart=/usr/local/bin/frob (code=exited, status=2)",
        "   Main PID: 99 (code=exited, status=2)",
        "",
        "Nov 19 23:00:00 host systemd[1]: frob.service: Scheduled restart job, restart counter is at 5.",
        "Nov 19 23:00:00 host systemd[1]: frob.service: Start request repeated too quickly.",
        "Nov 19 23:00:00 host systemd[1]: frob.service: Failed with result 'exit-code'.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
  });

  it("the start limit alone, nothing before it, is still systemd refusing the start", () => {
    const r = explain("Jul 01 09:00:00 host systemd[1]: frob.service: Start request repeated too quickly.");
    expect(r.class).toBe("unit-error");
  });

  it("an Ollama journal in a Chinese locale: its env dump's OLLAMA_KV_CACHE_TYPE is no llama.cpp KV line", () => {
    const r = explain(
      [
        "3月 04 10:00:00 host ollama[5]: 2026/03/04 10:00:00 routes.go:1 INFO server config " +
          'env="map[OLLAMA_DEBUG:false OLLAMA_KV_CACHE_TYPE: OLLAMA_NUM_PARALLEL:0 https_proxy:]"',
        '3月 04 10:00:00 host ollama[5]: time=2026-03-04T10:00:00.000+08:00 level=INFO source=images.go:1 msg="total blobs: 3"',
        "3月 04 10:00:00 host ollama[5]: [GIN-debug] [WARNING] Running in debug mode",
      ].join("\n"),
    );
    expect(r.class).toBe("unknown");
  });
});

describe("field set C, generalised: engines", () => {
  it("Ollama's client error around its runner's model load: an architecture the bundled llama.cpp does not know", () => {
    const r = explain(
      [
        "Error: 500 Internal Server Error: llama runner process has terminated: exit status 1: error loading model: " +
          "unknown model architecture: 'frobnet'",
        "error loading model: unknown model architecture: 'frobnet'",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("unknown model architecture: 'frobnet'");
    expect(r.fix).toMatch(/newer/);
  });

  it("the 2026 wording alone (`llama-server process has terminated`) is the same load failure", () => {
    const r = explain(
      "Error: 500 Internal Server Error: llama-server process has terminated: exit status 1: error loading model: " +
        "unknown model architecture: 'frobnet'",
    );
    expect(r.class).toBe("engine-init-failed");
  });

  it("an older llama-server's `error: unknown argument: FLAG`, pasted in a markdown fence", () => {
    const r = explain(["```", "error: unknown argument: --frob", "```"].join("\n"));
    expect(r.class).toBe("engine-args");
    expect(r.decisive).toBe("error: unknown argument: --frob");
  });

  it("llama.cpp inside WasmEdge's WASI-NN plugin: the GGUF bounds error beats the wrapper's invalid-argument errors", () => {
    const r = explain(
      [
        "[2026-01-01 10:00:00.000] [error] [WASI-NN] llama.cpp: llama_model_load: error loading model: tensor 'w.0' " +
          "data is not within the file bounds, model is corrupted or incomplete",
        "[2026-01-01 10:00:00.000] [error] [WASI-NN] GGML backend: Error: unable to init model.",
        'Error: Operation("Backend Error: WASI-NN Backend Error: Caller module passed an invalid argument")',
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("data is not within the file bounds");
    expect(familyOf("[2026-01-01 10:00:00.000] [info] [WASI-NN] llama.cpp: llama_model_loader: loaded meta data")).toBe(
      "llama.cpp",
    );
  });

  it("llama-server 2026 with `[pid]` and timestamps: an answered request (`done request: … 200`) is ready", () => {
    const lines = [
      "[901] 0.12.000.001 I slot      release: id  0 | task 7 | stop processing: n_tokens = 40, truncated = 0",
      "[901] 0.12.000.002 I srv  update_slots: all slots are idle",
      "[901] 0.12.000.003 I srv  log_server_r: done request: POST /v1/chat/completions 127.0.0.1 200",
      "[901] 0.12.000.004 W srv   prompt_save:  - saving prompt with length 40, total state size = 1.000 MiB",
    ];
    expect(explain(lines.join("\n")).class).toBe("ready");
    expect(familyOf(lines[1]!)).toBe("llama.cpp");
    // a refused request is no proof of readiness
    expect(explain(lines[2]!.replace(/ 200$/, " 500")).class).not.toBe("ready");
  });

  it("llama.cpp's mid-2024 LOG_INFO k=v slot line gives the slot's context", () => {
    const r = explain(
      [
        "llama_new_context_with_model: KV self size  =  512.00 MiB, K (f16):  256.00 MiB, V (f16):  256.00 MiB",
        'INFO [                    init] new slot | tid="1" timestamp=2 id_slot=0 n_ctx_slot=16384',
      ].join("\n"),
    );
    expect(r.plan.maxModelLen).toBe(16384);
    expect(r.plan.availableKvGiB).toBeCloseTo(0.5, 3);
  });

  it("Ray's raylet warning that /dev/shm is smaller than its object store asks: the workers fail of it", () => {
    const r = explain(
      "[2026-01-01 10:00:00,000 W 7 7] (raylet) store_runner.cc:1: System memory request exceeds memory available in " +
        "/dev/shm. The request is for 2000 bytes, and the amount available is 1000 bytes.",
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("exceeds memory available in /dev/shm");
    expect(r.fix).toMatch(/--shm-size|--ipc=host/);
  });

  it("SGLang up, then its own warm-up request failing: the server kills itself, so it is not ready", () => {
    const r = explain(
      [
        "[2026-01-01 10:00:00 TP0] Capture cuda graph begin. This can take up to several minutes.",
        "[2026-01-01 10:00:03 TP0] Capture cuda graph end. Time elapsed: 3.25 s",
        "[2026-01-01 10:00:04] INFO:     Application startup complete.",
        "[2026-01-01 10:00:04] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)",
        "[2026-01-01 10:02:00] Initialization failed. warmup error: Traceback (most recent call last):",
        '  File "/x/sglang/srt/entrypoints/http_server.py", line 1, in _wait_and_warmup',
        '    assert res.status_code == 200, f"{res=}, {res.text=}"',
        "AssertionError: res=<Response [503]>, res.text=''",
        "Killed",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toMatch(/AssertionError: res=<Response \[503\]>|Initialization failed\. warmup error/);
    expect(r.fix).toMatch(/no_proxy/);
    expect(r.plan.graphSeconds).toBeCloseTo(3.25, 2);
  });

  it("the custom all-reduce's CUDA check on GPUs without peer access, before torch's IPC warnings", () => {
    const r = explain(
      [
        "[10:00:00 TP0] Init nccl begin.",
        "[10:00:00 TP1] Init nccl begin.",
        `Failed: Cuda error /src/csrc/custom_all_reduce.cuh:307 '${CUDA_PEER}'`,
        "[rank1]:[W101 10:00:01.000000000 CudaIPCTypes.cpp:16] Producer process has been terminated before all shared " +
          "CUDA tensors released. See Note [Sharing CUDA tensors]",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain(CUDA_PEER);
    expect(r.fix).toMatch(/--disable-custom-all-reduce/);
  });

  it("NCCL's WARN naming peer access beats torch's `NCCL error … unhandled cuda error` printed before it", () => {
    const r = explain(
      [
        "(pid=11) RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1, unhandled cuda error, NCCL version 2.7.8",
        "(pid=12) host:12:13 [0] NCCL INFO Channel 00 : 0[1000] -> 1[2000] via P2P/IPC",
        `(pid=12) host:12:13 [0] transport/p2p.cc:1 NCCL WARN failed to open CUDA IPC handle : 217 ${CUDA_PEER}`,
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("NCCL WARN failed to open CUDA IPC handle");
  });

  it("vLLM 2026's `Starting vLLM server on URL` (no `API`, no index) before its routes is ready", () => {
    const r = explain(
      [
        "(APIServer pid=1) INFO 08-03 09:00:10 [api_server.py:1] Supported tasks: ['generate']",
        "(APIServer pid=1) INFO 08-03 09:00:10 [api_server.py:2] Starting vLLM server on http://0.0.0.0:8000",
        "(APIServer pid=1) INFO 08-03 09:00:10 [launcher.py:1] Available routes are:",
        "(APIServer pid=1) INFO 08-03 09:00:10 [launcher.py:2] Route: /health, Methods: GET",
      ].join("\n"),
    );
    expect(r.class).toBe("ready");
  });

  it("SGLang's first line, its server_args dump, is a boot that has begun", () => {
    const r = explain(
      [
        "command=python3 -m sglang.launch_server --model-path org/model --port 8000",
        "[2026-01-01 10:00:00] server_args=ServerArgs(model_path='org/model', tokenizer_path='org/model', tok",
      ].join("\n"),
    );
    expect(r.class).toBe("booting");
  });
});
