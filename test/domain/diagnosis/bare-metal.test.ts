// Engines run straight under systemd or nohup from a venv (found by the fourth blind log set,
// test/fixtures/corpora/logs-4): the install's own failures, systemd's start timeout, a worker's native death,
// a port another process holds, and a status paste that starts mid-serving.
import { describe, expect, it } from "vitest";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";

const E = "(EngineCore_DP0 pid=3902) ";
const A = "(APIServer pid=3710) ";

describe("a broken install names the one thing to fix", () => {
  it.each([
    [
      "/usr/bin/python3: Error while finding module specification for 'vllm.entrypoints.openai.api_server' (ModuleNotFoundError: No module named 'vllm')",
      /No module named 'vllm'/,
      /venv's own binary or interpreter/,
    ],
    [
      "/usr/local/bin/llama-server: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file or directory",
      /libcudart\.so\.12/,
      /Environment=LD_LIBRARY_PATH=/,
    ],
    [
      "- ImportError: /opt/sglang/.venv/lib/python3.12/site-packages/sgl_kernel/sm90/common_ops.abi3.so: undefined symbol: _ZN3c1013MessageLoggerC1EPKciib",
      /undefined symbol: _ZN3c10/,
      /torch in this venv/,
    ],
    ["error: Failed to spawn: `vllm`", /Failed to spawn/, /WorkingDirectory=/],
  ])("%s", (line, decisive, fix) => {
    const d = diagnose({
      lines: ["INFO 07-14 11:02:36 [__init__.py:244] Automatically detected platform cuda.", line],
    });
    expect(d.class).toBe("engine-init-failed");
    expect(d.decisive).toMatch(decisive);
    expect(d.fix).toMatch(fix);
  });
});

describe("systemd and the host, under an engine the unit runs itself", () => {
  it("TimeoutStartSec= running out is the unit's fault; the SIGTERM traceback after it is not the cause", () => {
    const d = diagnose({
      lines: [
        "vllm-coder.service: start operation timed out. Terminating.",
        `${A}Traceback (most recent call last):`,
        `${A}KeyboardInterrupt: terminated`,
        "vllm-coder.service: Failed with result 'timeout'.",
      ],
    });
    expect(d.class).toBe("unit-error");
    expect(d.decisive).toBe("vllm-coder.service: start operation timed out. Terminating.");
    expect(d.fix).toMatch(/TimeoutStartSec= above the longest boot/);
  });

  it("vLLM's own `[Errno 98] Address already in use` is a port another process holds", () => {
    const d = diagnose({ lines: [`${A}    sock.bind(addr)`, `${A}OSError: [Errno 98] Address already in use`] });
    expect(d.class).toBe("runtime-error");
    expect(d.summary).toMatch(/^the engine could not listen on its --port: another process already listens on it/);
  });

  it("a worker that died with no exception of its own is the cause, not EngineCore's fatal lines or the shutdown after it", () => {
    const d = diagnose({
      lines: [
        `${E}ERROR 11-27 22:41:15 [multiproc_executor.py:154] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.`,
        `${E}ERROR 11-27 22:41:15 [core.py:790] EngineCore encountered a fatal error.`,
        `${E}ERROR 11-27 22:41:15 [core.py:790] RuntimeError: Executor failed.`,
        `${A}ERROR 11-27 22:41:15 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.`,
        `${A}INFO:     Waiting for connections to close. (CTRL+C to force quit)`,
      ],
    });
    expect(d.class).toBe("engine-init-failed");
    expect(d.decisive).toBe("Worker proc VllmWorker-1 died unexpectedly, shutting down executor.");
    // a worker's own exception still wins over the line reporting its death
    const own = diagnose({
      lines: [
        `${E}ERROR 11-27 22:41:14 [core.py:700] ValueError: bad shard`,
        `${E}ERROR 11-27 22:41:15 [multiproc_executor.py:154] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.`,
      ],
    });
    expect(own.decisive).toBe("ValueError: bad shard");
  });

  it("a paste that starts mid-serving is ready by its answered (200) requests, never by refused ones", () => {
    const d = diagnose({ lines: [`${A}INFO:     10.0.8.15:60144 - "POST /v1/chat/completions HTTP/1.1" 200 OK`] });
    expect(d.class).toBe("ready");
    expect(
      diagnose({ lines: [`${A}INFO:     10.0.8.15:60144 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`] })
        .class,
    ).toBe("booting");
  });
});
