// Shapes found missing on the first blind run of field set D (field-logs-8), each written here in the tool's own
// wording, never copied from those logs: `systemctl status`'s `Process: N ExecStart=… (code=exited, status=S)` and
// `Active: activating (auto-restart)` / `Active: failed (Result: R)` header lines, systemd's `Control process exited`
// (and the lower-case `main process exited` of old releases), a program's own `Error: …` line that is no container
// runtime's, a #! CR shown as a space, SGLang's `alloc_req_slots runs out of memory`, the scheduler's FitError alone
// and a FailedScheduling the pod got past, a compose `container_name:` prefix, answered requests on any `/v1/` route,
// torch's OOM message hard-wrapped over lines.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";

describe("field set D, generalised: systemctl status and systemd's lines", () => {
  it("a restart scheduled after an ExecStart= that exited 255, the Main PID line cut: a crash loop, the exit decides", () => {
    const r = explain(
      [
        "● gated.service - Gate daemon",
        "     Loaded: loaded (/etc/systemd/system/gated.service; enabled; preset: disabled)",
        "     Active: activating (auto-restart) (Result: exit-code) since Po 2026-11-30 10:00:00 CET; 3s ago",
        "    Process: 4100 ExecStart=/usr/local/bin/gated --config /etc/gated.toml (code=exited, status=255)",
        "   Main PID: 4",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("ExecStart=/usr/local/bin/gated");
  });

  it("a one-shot's ExecStart= that failed, with systemd's old `Control process exited` below: the header names the command", () => {
    const r = explain(
      [
        "* sync-models.service - Model sync",
        "   Active: failed (Result: exit-code) since Mon 2026-11-30 09:00:00 UTC; 1min ago",
        "  Process: 812 ExecStart=/bin/sh -c /opt/sync.sh && touch /var/lib/synced (code=exited, status=2/INVALIDARGUMENT)",
        "",
        "Nov 30 09:00:00 box systemd[1]: Starting Model sync...",
        "Nov 30 09:00:00 box systemd[1]: sync-models.service: Control process exited, code=exited status=2",
        "Nov 30 09:00:00 box systemd[1]: Failed to start Model sync.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("Process: 812 ExecStart=/bin/sh");
  });

  it("`Active: failed (Result: start-limit-hit)` over exits that were all clean: systemd refused the start", () => {
    const r = explain(
      [
        "● metricsd.service - Metrics",
        "   Active: failed (Result: start-limit-hit) since Tue 2026-11-24 08:00:02 UTC; 10ms ago",
        "  Process: 300 ExecStart=/usr/bin/metricsd (code=exited, status=0/SUCCESS)",
        " Main PID: 300 (code=exited, status=0/SUCCESS)",
      ].join("\n"),
    );
    expect(r.class).toBe("unit-error");
    expect(r.decisive).toContain("Result: start-limit-hit");
  });

  it("old systemd's lower-case `main process exited` is the exit too", () => {
    const r = explain(
      [
        "Nov 30 09:00:00 box systemd[1]: Started Frob.",
        "Nov 30 09:00:04 box systemd[1]: frob.service: main process exited, code=exited, status=3/NOTIMPLEMENTED",
        "Nov 30 09:00:04 box systemd[1]: Unit frob.service entered failed state.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("status=3/NOTIMPLEMENTED");
  });

  it("a pre-start command that exited 0 is no exit of the service (only a failed ExecStart= counts)", () => {
    const r = explain(
      [
        "● web.service - Web",
        "     Active: active (running) since Mon 2026-11-30 09:00:00 UTC; 1h ago",
        "    Process: 90 ExecStartPre=/usr/bin/mkdir -p /run/web (code=exited, status=0/SUCCESS)",
        "    Process: 91 ExecStartPre=/usr/bin/false (code=exited, status=1/FAILURE)",
        "   Main PID: 92 (web)",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
  });
});

describe("field set D, generalised: whose error line it is", () => {
  const unitLog = (errorLine: string, status: string, ident = "modeld") =>
    [
      "Nov 30 09:00:00 box systemd[1]: Started Model daemon.",
      `Nov 30 09:00:01 box ${ident}[700]: ${errorLine}`,
      `Nov 30 09:00:01 box systemd[1]: modeld.service: Main process exited, code=exited, status=${status}`,
      "Nov 30 09:00:01 box systemd[1]: modeld.service: Failed with result 'exit-code'.",
    ].join("\n");

  it("a Go program's own `Error: …` under its unit's exit 1, no runtime in the log: a crash loop, its line decides", () => {
    const r = explain(unitLog("Error: open /srv/models/index: permission denied", "1/FAILURE"));
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toBe("Error: open /srv/models/index: permission denied");
  });

  it("the same line written by podman stays podman's error", () => {
    const r = explain(unitLog("Error: open /srv/models/index: permission denied", "1/FAILURE", "podman"));
    expect(r.class).toBe("runtime-error");
  });

  it("the same line above podman's own exit code (125) stays a runtime error, runtime named or not", () => {
    const r = explain(unitLog("Error: open /srv/models/index: permission denied", "125/n/a"));
    expect(r.class).toBe("runtime-error");
  });

  it("a #! line's CR shown as a space in a paste is still the CRLF script", () => {
    const r = explain(
      ["env: 'bash ': No such file or directory", "env: use -[v]S to pass options in shebang lines"].join("\n"),
    );
    expect(r.class).toBe("script-error");
    expect(r.fix).toContain("LF line endings");
  });
});

describe("field set D, generalised: engines and Kubernetes", () => {
  it("SGLang's scheduler out of request slots: the engine died, the fix names --max-running-requests", () => {
    const r = explain(
      "RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. " +
        "self.req_to_token_pool.available_size()=0, num_reqs=3,",
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.fix).toContain("--max-running-requests");
  });

  it("the scheduler's FitError quoted without its event row: unschedulable for want of GPUs", () => {
    const r = explain(
      "> 2026-11-30T08:00:00Z [Warning] 0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes " +
        "are available: 4 No preemption victims found for incoming pod.",
    );
    expect(r.class).toBe("runtime-error");
    expect(r.decisive).toContain("Insufficient nvidia.com/gpu");
  });

  it("FailedScheduling the pod got past (a Scheduled event after it): the later mount failure decides", () => {
    const r = explain(
      [
        "Events:",
        "  Type     Reason            Age   From               Message",
        "  Warning  FailedScheduling  2m    default-scheduler  0/2 nodes are available: 2 pod has unbound immediate PersistentVolumeClaims.",
        "  Normal   Scheduled         90s   default-scheduler  Successfully assigned ml/llm-0 to gpu-node-3",
        '  Warning  FailedMount       60s   kubelet            MountVolume.SetUp failed for volume "weights" : mount failed: exit status 32',
      ].join("\n"),
    );
    expect(r.class).toBe("runtime-error");
    expect(r.decisive).toContain("MountVolume.SetUp failed");
  });

  it("a FailedScheduling still unresolved stays the cause", () => {
    const r = explain(
      "  Warning  FailedScheduling  2m    default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
    );
    expect(r.decisive).toContain("Insufficient nvidia.com/gpu");
  });

  it("llama.cpp's load error behind a compose `container_name:` prefix outranks the wrapper line after it", () => {
    const r = explain(
      [
        "llm  | llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'zeta'",
        "llm  | llama_model_load_from_file_impl: failed to load model",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("unknown model architecture");
  });

  it("a paste that starts mid-serving on a non-chat route is ready by its answered requests", () => {
    const r = explain(
      [
        "2026-11-30 10:00:00,100 [INFO] sglang.srt.managers.scheduler: Decode batch, #running-req: 1, #token: 90, #queue-req: 0,",
        'INFO:     10.0.0.7:50000 - "POST /v1/audio/speech HTTP/1.1" 200 OK',
      ].join("\n"),
    );
    expect(r.class).toBe("ready");
  });

  it("torch's OOM hard-wrapped by the page it was pasted from: the figures on the next line are read", () => {
    const r = explain(
      [
        "torch.OutOfMemoryError: CUDA out of memory.",
        "Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.50 GiB of which 100.00 MiB is free.",
        "Of the allocated memory 21.00 GiB is allocated by PyTorch,",
      ].join("\n"),
    );
    expect(r.class).toBe("oom");
    expect(r.oom?.triedGiB).toBe(0.5);
    expect(r.oom?.totalGiB).toBe(23.5);
  });
});
