// The stop-hang diagnosis on captured `ps -o pid,stat,etime,comm` output, and on real ps output.
import { execFileSync, spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { classifyStopHang, parsePs, parseTimespan } from "../../../src/stages/deploy/stop-hang.js";

// Captured from a ROCm host whose engine was stuck tearing down the KFD queues after SIGKILL.
const CAPTURED = `    PID STAT     ELAPSED COMMAND
 412077 Ssl      02:11:47 conmon
 412090 Dsl      02:11:46 python3
 412311 D        02:11:40 pt_main_thread
 412355 Zs       02:11:40 VLLM::EngineCor
`;

describe("stop-hang diagnosis", () => {
  it("parses ps rows, header or not", () => {
    expect(parsePs(CAPTURED)).toEqual([
      { pid: 412077, stat: "Ssl", etime: "02:11:47", comm: "conmon" },
      { pid: 412090, stat: "Dsl", etime: "02:11:46", comm: "python3" },
      { pid: 412311, stat: "D", etime: "02:11:40", comm: "pt_main_thread" },
      { pid: 412355, stat: "Zs", etime: "02:11:40", comm: "VLLM::EngineCor" },
    ]);
  });

  it("reports D state first, as uninterruptible, never as a GPU wedge", () => {
    const h = classifyStopHang(parsePs(CAPTURED), "frank.service", 95_000);
    expect(h.kind).toBe("uninterruptible");
    expect(h.summary).toBe(
      "frank.service did not stop within 95 s: 2 process(es) in D state (python3 412090, pt_main_thread 412311), uninterruptible: wait, do not declare a GPU wedge",
    );
    expect(h.evidence.slice(0, 2)).toEqual(["412090 Dsl 02:11:46 python3", "412311 D 02:11:40 pt_main_thread"]);
  });

  it("without D state: still running (zombies named) or already gone", () => {
    const running = classifyStopHang(
      parsePs(CAPTURED).filter((r) => !r.stat.startsWith("D")),
      "u.service",
      10_000,
    );
    expect(running.kind).toBe("running");
    expect(running.summary).toMatch(
      /2 process\(es\) still there \(1 zombie, waiting for its parent\), none in D state/,
    );
    expect(classifyStopHang([], "u.service", 10_000).kind).toBe("gone");
  });

  it("reads real ps output of a live process", () => {
    const child = spawn("sleep", ["30"]);
    try {
      const out = execFileSync("ps", ["-o", "pid,stat,etime,comm", "-p", String(child.pid)], { encoding: "utf8" });
      const rows = parsePs(out);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ pid: child.pid, comm: "sleep" });
      expect(rows[0]!.stat).toMatch(/^[SR]/);
      expect(classifyStopHang(rows, "u.service", 1000).kind).toBe("running");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("reads systemd's TimeoutStopUSec", () => {
    expect(parseTimespan("1min 30s\n")).toBe(90_000);
    expect(parseTimespan("5s")).toBe(5000);
    expect(parseTimespan("500ms")).toBe(500);
    expect(parseTimespan("infinity")).toBeNull();
  });
});
