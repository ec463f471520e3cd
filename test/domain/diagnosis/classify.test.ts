import { describe, expect, it } from "vitest";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { unitEventOf, attemptsOf } from "../../../src/domain/diagnosis/unit-events.js";
import { fixtureLines } from "../../fixtures/journal/classes/fixture.js";

const sd = (text: string, ts: number, at?: number) => ({
  ...unitEventOf(text, { fromSystemd: true, unit: "frank-archon.service", ts })!,
  at,
});
const S = 1_000_000;

describe("diagnose: failure classes from engine lines", () => {
  it("OOM: the torch line is decisive over the Worker-failed echo and the wrapper, with the gap math", () => {
    const d = diagnose({ lines: fixtureLines("torch21-capacty-oom.log") });
    expect(d.class).toBe("oom");
    expect(d.decisive).toMatch(/^torch\.cuda\.OutOfMemoryError: HIP out of memory\. Tried to allocate 512\.00 MiB/);
    expect(d.oom).toEqual({ triedGiB: 0.5, freeGiB: 0.199, totalGiB: 79.15, shortfallGiB: 0.301 });
    expect(d.fix).toMatch(/^Asked 0\.5 GiB with 0\.2 GiB free \(short 0\.3 GiB\): lower --gpu-memory-utilization/);
  });

  it("dynamo: shape specialisation with the constant, and a fix that is not memory", () => {
    const d = diagnose({ lines: fixtureLines("dynamo-shape.log") });
    expect(d.class).toBe("dynamo-shape");
    expect(d.decisive).toContain("Constraints violated (L['query_start_loc'].size()[0])!");
    expect(d.summary).toContain("specialised to the constant 5");
    expect(d.fix).toMatch(/not memory: try --enforce-eager/);
    expect(d.oom).toBeNull();
    expect(d.compileCache.state).toBe("cold");
  });

  it("KV: the ValueError, not the `Engine core initialization failed` wrapper", () => {
    const d = diagnose({ lines: fixtureLines("v1-2025-kv-valueerror.log") });
    expect(d.class).toBe("kv-insufficient");
    expect(d.decisive).toMatch(/^ValueError: To serve at least one request with the models's max seq len \(131072\)/);
    expect(d.summary).toBe("KV cache too small for one max-length request: needs 4.54 GiB, 1.71 GiB available");
    expect(d.fix).toContain("the engine estimates 49344 fits");
    expect(d.plan).toMatchObject({ availableKvGiB: 1.71, modelLoadGiB: 11.4384, compileSeconds: 26 });
  });

  it("generic engine failure: the Worker-failed line (v0.8 tuple bug spelling)", () => {
    const d = diagnose({ lines: fixtureLines("worker-tuple-error.log") });
    expect(d.class).toBe("engine-init-failed");
    expect(d.decisive).toContain("NCCL error: unhandled system error");
  });

  it("no GPUs: names the /dev/dri mount", () => {
    const d = diagnose({ lines: fixtureLines("no-gpus.log") });
    expect(d).toMatchObject({ class: "engine-init-failed", decisive: "RuntimeError: No CUDA GPUs are available" });
    expect(d.fix).toContain("/dev/dri");
  });

  it("memlock: a sizeless CUDA error: out of memory points at memlock, not VRAM", () => {
    const d = diagnose({
      lines: [
        "Traceback (most recent call last):",
        "    pinned = buf.pin_memory()",
        "torch.AcceleratorError: CUDA error: out of memory",
      ],
    });
    expect(d.class).toBe("oom");
    expect(d.oom).toBeNull();
    expect(d.fix).toContain("memlock=-1:-1");
  });

  it("a later ready marker outranks an earlier non-fatal exception line", () => {
    const d = diagnose({
      lines: [
        "ERROR 01-01 00:00:00 [x.py:1] KeyError: 'foo'",
        "(APIServer pid=1) INFO:     Application startup complete.",
      ],
    });
    expect(d.class).toBe("ready");
  });

  it("a request error's traceback after readiness is not a boot failure; an OOM after readiness is", () => {
    const ready = "(APIServer pid=1) INFO:     Application startup complete.";
    const reqErr = [
      "(APIServer pid=1) ERROR 01-01 00:00:09 [serving_chat.py:222] Error in preprocessing prompt inputs",
      "Traceback (most recent call last):",
      "ValueError: This model's maximum context length is 32768 tokens.",
    ];
    expect(diagnose({ lines: [ready, ...reqErr] }).class).toBe("ready");
    expect(
      diagnose({
        lines: [
          ready,
          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 24 GiB of which 0.5 GiB is free.",
        ],
      }).class,
    ).toBe("oom");
  });

  it("redacts secrets in the decisive line and the evidence", () => {
    const d = diagnose({ lines: ["Traceback (most recent call last):", "ValueError: bad arg api_key='sk-123456'"] });
    expect(d.decisive).toBe("ValueError: bad arg api_key='***'");
    expect(d.evidence.join("\n")).not.toContain("sk-123456");
  });
});

describe("diagnose: systemd process signatures", () => {
  const boot = ["(APIServer pid=1) INFO 10-05 17:00:02 [api_server.py:1805] vLLM API server version 0.29.0.dev"];

  it("clean exit: Deactivated successfully with no traceback, before readiness", () => {
    const d = diagnose({
      lines: boot,
      unitEvents: [
        sd("Started frank-archon.service - Frank.", 0, 0),
        sd("frank-archon.service: Deactivated successfully.", 400 * S),
      ],
    });
    expect(d.class).toBe("clean-exit");
    expect(d.decisive).toBe("frank-archon.service: Deactivated successfully.");
    expect(d.fix).toContain("Restart=on-failure");
  });

  it("container removed: a ready engine that then exits 0", () => {
    const lines = [...boot, "(APIServer pid=1) INFO:     Application startup complete."];
    const d = diagnose({
      lines,
      unitEvents: [
        sd("Started frank-archon.service - Frank.", 0, 0),
        sd("frank-archon.service: Main process exited, code=exited, status=0/SUCCESS", 900 * S),
      ],
    });
    expect(d.class).toBe("container-removed");
    expect(d.fix).toContain("podman rm -f");
  });

  it("a systemctl stop after readiness is not an outside removal", () => {
    const lines = [...boot, "(APIServer pid=1) INFO:     Application startup complete."];
    const d = diagnose({
      lines,
      unitEvents: [
        sd("Started frank-archon.service - Frank.", 0, 0),
        sd("Stopping frank-archon.service - Frank...", 800 * S),
        sd("frank-archon.service: Deactivated successfully.", 900 * S),
      ],
    });
    expect(d.class).toBe("ready");
  });

  it("a deploy's stop of the previous engine, then a new boot in progress, is booting", () => {
    const ready = "(APIServer pid=1) INFO:     Application startup complete.";
    const d = diagnose({
      lines: [...boot, ready, ...boot],
      unitEvents: [
        sd("Started frank-archon.service - F.", 1 * S, 0),
        sd("Stopping frank-archon.service - F...", 5 * S, 2),
        sd("frank-archon.service: Deactivated successfully.", 6 * S, 2),
        sd("Started frank-archon.service - F.", 7 * S, 2),
      ],
    });
    expect(d.class).toBe("booting");
  });

  it("crash loop: per-attempt durations from Started … Deactivated cycles", () => {
    const events = [0, 1, 2].flatMap((i) => [
      sd("Started frank-archon.service - Frank.", (1000 + i * 500) * S),
      sd("frank-archon.service: Deactivated successfully.", (1000 + i * 500 + 402) * S),
      sd(`frank-archon.service: Scheduled restart job, restart counter is at ${i + 1}.`, (1000 + i * 500 + 410) * S),
    ]);
    const d = diagnose({ lines: boot, unitEvents: events });
    expect(d.class).toBe("crash-loop");
    expect(d.attempts.map((a) => a.durationS)).toEqual([402, 402, 402]);
    expect(d.summary).toBe("crash loop: 3 attempt(s) ended after 402s, 402s, 402s");
  });

  it("a root cause in the loop stays the class, the loop goes into the summary", () => {
    const events = [
      sd("Started frank-archon.service - F.", 0, 0),
      sd("frank-archon.service: Deactivated successfully.", 10 * S, 3),
      sd("Started frank-archon.service - F.", 20 * S, 3),
      sd("frank-archon.service: Deactivated successfully.", 30 * S),
    ];
    const d = diagnose({
      lines: [...boot, "Traceback (most recent call last):", "RuntimeError: No CUDA GPUs are available", ...boot],
      unitEvents: events,
    });
    expect(d.class).toBe("engine-init-failed");
    expect(d.summary).toContain("crash loop: 2 attempts ended");
  });

  it("NRestarts alone marks a loop when no attempt reached readiness", () => {
    expect(diagnose({ lines: boot, nRestarts: 4 }).class).toBe("crash-loop");
    expect(diagnose({ lines: boot, nRestarts: 0 }).class).toBe("booting");
  });

  it("start-limit-hit is decisive: after attempts a crash loop, with no attempt in the window systemd refused the start", () => {
    const loop = diagnose({
      lines: [],
      unitEvents: [
        sd("Started frank-archon.service - vLLM.", 1),
        sd("frank-archon.service: Main process exited, code=exited, status=1/FAILURE", 2),
        sd("Started frank-archon.service - vLLM.", 3),
        sd("frank-archon.service: Main process exited, code=exited, status=1/FAILURE", 4),
        sd("frank-archon.service: Start request repeated too quickly.", 5),
      ],
    });
    expect(loop).toMatchObject({
      class: "crash-loop",
      decisive: "frank-archon.service: Start request repeated too quickly.",
    });
    expect(loop.fix).toContain("reset-failed");
    const refused = diagnose({
      lines: [],
      unitEvents: [sd("frank-archon.service: Start request repeated too quickly.", 5)],
    });
    expect(refused).toMatchObject({
      class: "unit-error",
      decisive: "frank-archon.service: Start request repeated too quickly.",
    });
    expect(refused.summary).toMatch(/start-limit-hit/);
    expect(refused.fix).toContain("systemctl reset-failed frank-archon.service");
  });

  it("ignores podman's scopes and uvicorn's `Started server process`", () => {
    expect(
      unitEventOf("Started libpod-conmon-3f1c.scope.", { fromSystemd: true, unit: "libpod-conmon-3f1c.scope" }),
    ).toBeNull();
    expect(unitEventOf("Started server process [1]", { fromSystemd: false })).toBeNull();
    expect(attemptsOf([])).toEqual([]);
  });
});

describe("diagnose: healthy boots", () => {
  it("booting reports the phase", () => {
    const d = diagnose({ lines: fixtureLines("booting.log") });
    expect(d).toMatchObject({ class: "booting", phase: "compiling", decisive: null });
  });

  it("ready with spec decode and plan", () => {
    const d = diagnose({ lines: fixtureLines("v1-2025-ready-two-line-kv.log") });
    expect(d.class).toBe("ready");
    expect(d.specDecode).toEqual({
      meanAcceptanceLength: 2.57,
      acceptanceRate: 0.524,
      perPosition: [0.766, 0.547, 0.258],
    });
    expect(d.plan.kvTokens).toBe(42656);
  });

  it("the newest spec-decode metrics line counts, whether it came quiet (held raw) or through the whole reading", () => {
    const spec = (mean: string) =>
      `(APIServer pid=1) INFO 09-12 10:05:12 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: ${mean}, Accepted: 201 tokens, Drafted: 384 tokens`;
    const banner = "(APIServer pid=1) INFO 09-12 10:00:00 [api_server.py:1] vLLM API server version 0.10.1";
    // quiet lines past the pending limit, then one that holds the literal but is no metrics line
    const many = Array.from({ length: 150 }, (_, i) => spec(`1.${String(i).padStart(3, "0")}`));
    const notSpec = "(APIServer pid=1) INFO 09-12 10:05:13 [x.py:1] exported metrics: 3 series";
    expect(diagnose({ lines: [banner, ...many, notSpec] }).specDecode?.meanAcceptanceLength).toBe(1.149);
    // an ERROR line takes the whole reading: a quiet one after it is newer
    const errorSpec = spec("3.5").replace(" INFO ", " ERROR ");
    expect(diagnose({ lines: [banner, spec("2.5"), errorSpec] }).specDecode?.meanAcceptanceLength).toBe(3.5);
    expect(diagnose({ lines: [banner, errorSpec, spec("2.5")] }).specDecode?.meanAcceptanceLength).toBe(2.5);
    expect(diagnose({ lines: [banner, errorSpec, notSpec] }).specDecode?.meanAcceptanceLength).toBe(3.5);
  });

  it("unknown when nothing is recognisable", () => {
    expect(diagnose({ lines: ["hello", "world"] }).class).toBe("unknown");
  });
});
