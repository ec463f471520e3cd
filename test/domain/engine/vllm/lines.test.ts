import { describe, expect, it } from "vitest";
import { messageOf, parseLine } from "../../../../src/domain/engine/vllm/lines.js";

describe("parseLine", () => {
  it("reads the 2024 prefix without brackets", () => {
    const l = parseLine(
      "INFO 01-30 03:19:14 kv_cache_utils.py:398] Maximum concurrency for 4096 tokens per request: 2.00x",
    );
    expect(l).toEqual({
      proc: null,
      pid: null,
      level: "INFO",
      file: "kv_cache_utils.py",
      msg: "Maximum concurrency for 4096 tokens per request: 2.00x",
    });
  });

  it("reads the coloured worker prefix of the older V1 era", () => {
    const l = parseLine("\x1b[1;36m(VllmWorker rank=1 pid=123)\x1b[0;0m ERROR 04-30 06:47:04 [gpu_worker.py:217] boom");
    expect(l).toMatchObject({
      proc: "VllmWorker rank=1",
      pid: 123,
      level: "ERROR",
      file: "gpu_worker.py",
      msg: "boom",
    });
  });

  it("reads newest process names and raw traceback lines with only a process prefix", () => {
    expect(parseLine("(EngineCore pid=75) INFO 09-20 08:05:10 [kv_cache_utils.py:1311] x")).toMatchObject({
      proc: "EngineCore",
      pid: 75,
      msg: "x",
    });
    expect(parseLine('(Worker_PP1_TP0 pid=9)   File "a.py", line 3, in f')).toMatchObject({
      proc: "Worker_PP1_TP0",
      level: null,
      msg: '  File "a.py", line 3, in f',
    });
    expect(parseLine("(APIServer pid=1) INFO:     Application startup complete.").msg).toBe(
      "INFO:     Application startup complete.",
    );
  });

  it("keeps a line with no prefix as it is", () => {
    expect(messageOf("ValueError: bad")).toBe("ValueError: bad");
  });
});
