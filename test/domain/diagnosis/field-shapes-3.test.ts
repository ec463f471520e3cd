// Shapes found missing on the one blind run of field set B (docs/accuracy.md), each written here in the tool's own
// wording (systemd service.c's "Service hold-off time over, scheduling restart.", llama.cpp's mid-2024
// server.cpp LOG_INFO "all slots are idle" in its bracketed `INFO [ function ] msg | k=v` form and its 2026 `[pid] E`
// prefix, SGLang model_runner.py's "max_total_tokens=N is larger than the profiled value N", NCCL shmutils.cc's
// "Error while creating shared memory segment %s (size %zi)", an ERR trap's echo), never copied from those logs.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";

describe("field set B, generalised", () => {
  it("an old systemd's hold-off restart with -x catalog text, months localized, is a crash loop", () => {
    const r = explain(
      [
        "Mär 02 10:00:00 host systemd[1]: frob.service: Service hold-off time over, scheduling restart.",
        "Mär 02 10:00:00 host systemd[1]: Stopped Frobnicator.",
        "-- Subject: Unit frob.service has finished shutting down",
        "-- Defined-By: systemd",
        "-- ",
        "-- Unit frob.service has finished shutting down.",
        "Mär 02 10:00:00 host systemd[1]: Starting Frobnicator...",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
  });

  it("a newer systemd's hold-off line followed by its counter line is one restart, not two", () => {
    const r = explain(
      [
        "Mär 02 10:00:00 host systemd[1]: frob.service: Main process exited, code=exited, status=0/SUCCESS",
        "Mär 02 10:00:00 host systemd[1]: frob.service: Service hold-off time over, scheduling restart.",
        "Mär 02 10:00:00 host systemd[1]: frob.service: Scheduled restart job, restart counter is at 1.",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
  });

  it("an old systemd's hold-off restart after a clean exit is no crash loop", () => {
    const r = explain(
      [
        "Mär 02 10:00:00 host systemd[1]: frob.service: Main process exited, code=exited, status=0/SUCCESS",
        "Mär 02 10:00:00 host systemd[1]: frob.service: Service hold-off time over, scheduling restart.",
      ].join("\n"),
    );
    expect(r.class).not.toBe("crash-loop");
  });

  it("llama.cpp's 2024 bracketed log saying all slots are idle is ready", () => {
    const r = explain(
      [
        '      INFO [                    main] HTTP server listening | tid="1" timestamp=1 port="9000"',
        '      INFO [            update_slots] all slots are idle | tid="1" timestamp=2',
      ].join("\n"),
    );
    expect(r.class).toBe("ready");
  });

  it("llama.cpp's 2026 `[pid] E` prefix on a GGUF open error is a model load failure", () => {
    const r = explain("[1234] E gguf_init_from_file: failed to open GGUF file 'models/x.gguf'");
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("failed to open GGUF file");
  });

  it("SGLang's KV pool profiled negative: the weights left no room for any KV cache", () => {
    const r = explain(
      [
        "[2026-01-01 00:00:00 TP0] Load weight end. type=X, dtype=torch.bfloat16, avail mem=3.50 GB, mem usage=70.25 GB.",
        "[2026-01-01 00:00:01 TP0] max_total_tokens=65536 is larger than the profiled value -12345. Use the profiled value instead.",
      ].join("\n"),
    );
    expect(r.class).toBe("kv-insufficient");
    expect(r.decisive).toContain("profiled value -12345");
    expect(r.plan.modelLoadGiB).toBeCloseTo(70.25, 2);
  });

  it("a positive profiled value is only a clamp, no failure", () => {
    const r = explain(
      "[2026-01-01 00:00:01 TP0] max_total_tokens=65536 is larger than the profiled value 40000. Use the profiled value instead.",
    );
    expect(r.class).not.toBe("kv-insufficient");
  });

  it("NCCL's /dev/shm segment warning names the cause over ncclSystemError", () => {
    const r = explain(
      [
        "NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 1234)",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("Error while creating shared memory segment");
  });

  it("an ERR-trap line pasted inside markdown backticks is a script error", () => {
    const r = explain('`[ERROR] in line 77: exit code 2: while executing command make -C "$DIR"`');
    expect(r.class).toBe("script-error");
    expect(r.decisive).toContain("[ERROR] in line 77");
  });

  it("nested ERR traps: the inner (first) report is the cause, the outer only says the inner script failed", () => {
    const r = explain(
      [
        "[ERROR] in line 12: exit code 1: while executing command apt-get install -y foo",
        '[ERROR] in line 900: exit code 1: while executing command bash -c "$(cat inner.sh)"',
      ].join("\n"),
    );
    expect(r.class).toBe("script-error");
    expect(r.decisive).toContain("[ERROR] in line 12");
  });
  it("plan lines inside a terminal viewer's frame (k9s logs: `│ line   │`) give their figures", () => {
    const pad = " ".repeat(40);
    const r = explain(
      [
        `│ INFO 01-02 03:04:05 [worker.py:267] model weights take 9.25GiB; non_torch_memory takes 0.10GiB; PyTorch activation peak memory takes 1.50GiB; the rest of the memory reserved for KV Cache is 40.75GiB.${pad}│`,
        `│ INFO 01-02 03:04:06 [executor_base.py:111] # cuda blocks: 4321, # CPU blocks: 256${pad}│`,
        `│ INFO 01-02 03:04:07 [executor_base.py:113] # CUDA blocks: 4322, # CPU blocks: 256${pad}│`,
      ].join("\n"),
    );
    expect(r.plan.modelLoadGiB).toBeCloseTo(9.25, 2);
    expect(r.plan.availableKvGiB).toBeCloseTo(40.75, 2);
    expect(r.plan.gpuBlocks).toBe(4322);
  });

  it("vLLM's CPU boot gives its load seconds from default_loader's `Loading weights took N seconds`", () => {
    const r = explain("(Worker pid=7) INFO 01-02 03:04:05 [default_loader.py:384] Loading weights took 8.50 seconds");
    expect(r.plan.modelLoadSeconds).toBeCloseTo(8.5, 2);
  });

  it("on a GPU boot the model runner's `Model loading took … and N seconds` after it is the load time", () => {
    const r = explain(
      [
        "(EngineCore_0 pid=7) INFO 01-02 03:04:05 [default_loader.py:384] Loading weights took 8.50 seconds",
        "(EngineCore_0 pid=7) INFO 01-02 03:04:06 [gpu_model_runner.py:1] Model loading took 15.20 GiB and 10.25 seconds",
      ].join("\n"),
    );
    expect(r.plan.modelLoadSeconds).toBeCloseTo(10.25, 2);
  });
});
