// The shapes of real output that diagnosis missed on pasted public logs (issue 25), one family per block, each
// taken from the tool's own source: journald's short format is strftime("%b %d %H:%M:%S") in the reader's locale
// (systemd logs-show.c; glibc's abmon for de/fr/es/ru, "12月" for zh/ja); systemctl status prints a unit's
// `Process:`/`Main PID:` exit as `(code=exited, status=203/EXEC)` (systemd systemctl-show.c); GNU env quotes the
// interpreter it could not find (`'bash\r'`) and bash says `bad interpreter` with `^M`; NCCL's own WARN lines
// (bootstrap.cc "Bootstrap : no socket interface found", net_socket.cc "NET/Socket : no interface found").
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { redact } from "../../../src/domain/redact/redact.js";

const EXEC_FAIL = "vllm.service: Failed to locate executable /opt/vllm/serve.sh: No such file or directory";

describe("journal lines in any locale", () => {
  it.each([
    ["en", "Dec 03"],
    ["de", "Dez 03"],
    ["fr", "déc. 03"],
    ["es", "dic 03"],
    ["ru", "дек 03"],
    ["zh", "12月 03"],
    ["ja", "12月 03"],
  ])("%s: `%s …` is a journal line and systemd's failure in it is read", (_l, date) => {
    const r = explain(
      [
        `${date} 10:00:01 gpu1 systemd[1]: Started vllm.service - vLLM.`,
        `${date} 10:00:01 gpu1 systemd[1]: ${EXEC_FAIL}`,
        `${date} 10:00:01 gpu1 systemd[1]: vllm.service: Main process exited, code=exited, status=203/EXEC`,
      ].join("\n"),
    );
    expect(r.class).toBe("unit-error");
    expect(r.decisive).toBe(EXEC_FAIL);
  });
});

describe("journalctl -o short-full in any locale", () => {
  it.each([["Thu"], ["Do"], ["jeu."], ["Чт"], ["木"]])(
    "a weekday `%s` before the date is read as the journal's",
    (day) => {
      const r = explain(
        [
          `${day} 2026-12-03 10:00:01 CET gpu1 systemd[1]: ${EXEC_FAIL}`,
          `${day} 2026-12-03 10:00:01 +03 gpu1 systemd[1]: vllm.service: Main process exited, code=exited, status=203/EXEC`,
        ].join("\n"),
      );
      expect(r.class).toBe("unit-error");
      expect(r.decisive).toBe(EXEC_FAIL);
    },
  );
});

describe("systemctl status", () => {
  const status = (exit: string) =>
    [
      "● vllm.service - vLLM OpenAI server",
      "     Loaded: loaded (/etc/systemd/system/vllm.service; enabled; preset: enabled)",
      "     Active: activating (auto-restart) (Result: exit-code) since Thu 2026-12-03 10:00:00 UTC; 3s ago",
      `    Process: 1234 ExecStart=/opt/vllm/serve.sh --port 8000 (code=exited, status=${exit})`,
      `   Main PID: 1234 (code=exited, status=${exit})`,
      "        CPU: 5ms",
      "",
      "Dec 03 10:00:00 gpu1 systemd[1]: vllm.service: Scheduled restart job, restart counter is at 3.",
      "Dec 03 10:00:00 gpu1 systemd[1]: vllm.service: Failed with result 'exit-code'.",
    ].join("\n");
  it("the Process: header's 203/EXEC is the event, not the restart that follows", () => {
    const r = explain(status("203/EXEC"));
    expect(r.class).toBe("unit-error");
    expect(r.decisive).toContain("status=203/EXEC");
    expect(r.fix).toContain("/opt/vllm/serve.sh");
  });
  it("217/USER names the user", () => {
    expect(explain(status("217/USER")).summary).toContain("User=");
  });
  it("a failure with Result: oom-kill is the kernel's OOM killer", () => {
    const r = explain(
      "● vllm.service - vLLM\n     Active: failed (Result: oom-kill) since Thu 2026-12-03 10:00:00 UTC; 1min ago",
    );
    expect(r.class).toBe("oom");
    expect(r.summary).toContain("host RAM");
  });
});

describe("scripts", () => {
  it.each([
    ["GNU env", "/usr/bin/env: 'bash\\r': No such file or directory"],
    ["GNU env, UTF-8 quotes", "/usr/bin/env: ‘python3\\r’: No such file or directory"],
    ["bash", "bash: ./serve.sh: /bin/bash^M: bad interpreter: No such file or directory"],
    ["bash, raw CR", "bash: ./serve.sh: /bin/bash\r: bad interpreter: No such file or directory"],
  ])("a #! line ending in CR (%s) is a script error whose fix is LF line endings", (_w, line) => {
    const r = explain(
      [line, "Dec 03 10:00:00 gpu1 systemd[1]: vllm.service: Main process exited, code=exited, status=127/n/a"].join(
        "\n",
      ),
    );
    expect(r.class).toBe("script-error");
    expect(r.fix).toMatch(/dos2unix|\\r\$/);
  });

  it("an ERR trap's own line decides when nothing under it said more, never over the engine's cause", () => {
    const trapped = explain("+ huggingface-cli download Qwen/Qwen3-8B\n[ERROR] in line 12: exit code 1");
    expect(trapped.class).toBe("script-error");
    expect(trapped.decisive).toBe("[ERROR] in line 12: exit code 1");
    expect(trapped.summary).toContain("line 12");
    const engine = explain(
      [
        "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.50 GiB).",
        "[ERROR] in line 12: exit code 1",
      ].join("\n"),
    );
    expect(engine.class).toBe("kv-insufficient");
  });
});

describe("the decisive line", () => {
  it("a traceback's exception line, not the `raise` source line above it that quotes the same words", () => {
    const r = explain(
      [
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.12/site-packages/vllm/v1/core/kv_cache_utils.py", line 600, in check_enough_kv_cache_memory',
        '    raise ValueError("No available memory for the cache blocks. "',
        "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
      ].join("\n"),
    );
    expect(r.class).toBe("kv-insufficient");
    expect(r.decisive).toMatch(/^ValueError: No available memory/);
  });

  it("NCCL's own warning naming the cause outranks the framework's wrapper exception", () => {
    const r = explain(
      [
        "gpu1:2041:2041 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.5<0>",
        "gpu1:2041:2041 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
        "gpu1:2041:2041 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toContain("no socket interface found");
    expect(r.fix).toContain("NCCL_SOCKET_IFNAME");
  });

  it("a harmless NCCL WARN is no failure", () => {
    expect(explain("gpu1:1:1 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so").class).not.toBe(
      "engine-init-failed",
    );
  });
});

describe("redaction keeps prose", () => {
  it("`credentials:` in systemd's message is followed by an errno, not a secret", () => {
    expect(redact("vllm.service: Failed to determine user credentials: No such process")).toBe(
      "vllm.service: Failed to determine user credentials: No such process",
    );
    expect(redact("credentials: hunter2xyz")).toBe("credentials: ***");
  });
});
