// The poll parsers against output captured from the sandbox host (test/fixtures/journal/polls/*.txt).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJournalChunk, parseMark, parsePoll, parseUnitShow } from "../../../src/stages/deploy/poll-parse.js";
import { parsePodmanTime } from "../../../src/domain/host-output.js";

const fx = (n: string) => readFileSync(join(import.meta.dirname, "../../fixtures/journal/polls", n), "utf8");

describe("parsePoll on captured output", () => {
  it("a booting engine: unit running, the container's identity with ns creation time, boot lines and the cursor", () => {
    const p = parsePoll(fx("poll-booting.txt"));
    expect(p.errors).toEqual([]);
    expect(p.hostNowMs).toBe(1795992128783);
    expect(p.unit).toEqual({
      activeState: "active",
      subState: "running",
      nRestarts: 0,
      result: "success",
      execMainStatus: 0,
      execMainCode: "0",
    });
    expect(p.container).toEqual({
      id: "741de95ec479cd538806cb8972ae558bc4fc5c751278a5ec5ab939afab37b812",
      state: "running",
      exitCode: 0,
      createdAtMs: expect.closeTo(Date.UTC(2026, 10, 29, 22, 42, 8, 29) + 0.563812, 3),
    });
    expect(p.journal.messages.some((m) => m.includes("vLLM server version"))).toBe(true);
    expect(p.journal.cursor).toMatch(/^s=f421b829a8d2422784d03ed7aa245c90;i=bf5;/);
  });

  it("an engine that exited: auto-restart, no container (inspect's 125 is an answer, not an error), the OOM traceback in the journal", () => {
    const p = parsePoll(fx("poll-auto-restart.txt"));
    expect(p.errors).toEqual([]);
    expect(p.unit).toMatchObject({ activeState: "activating", subState: "auto-restart", result: "exit-code" });
    expect(p.container).toBeNull();
    expect(p.journal.messages.some((m) => m.includes("CUDA out of memory. Tried to allocate"))).toBe(true);
    expect(p.journal.messages.every((m) => !m.includes("\u001b["))).toBe(true);
  });

  it("a removed unit: inactive, nothing new in the journal still moves the cursor", () => {
    const p = parsePoll(fx("poll-no-container.txt"));
    expect(p.unit?.activeState).toBe("inactive");
    expect(p.container).toBeNull();
    expect(p.journal.json).toEqual([]);
    expect(p.journal.cursor).toMatch(/;i=c50;/);
  });

  it("an answer with no unit section reports what is missing instead of guessing", () => {
    const p = parsePoll(
      "@@deploy-gate:now\n1795992128783093883\n@@deploy-gate:ps\nError: connection refused\n@@deploy-gate:rc=125\n",
    );
    expect(p.unit).toBeNull();
    expect(p.errors.join(" ")).toMatch(/systemctl show gave no unit state/);
  });
});

describe("small parsers", () => {
  it("reads the mark taken before the restart", () => {
    expect(parseMark(fx("mark.txt"))).toEqual({ hostNowMs: 1795992127424, cursor: expect.stringMatching(/;i=bd3;/) });
  });

  it("honours the offset of podman's time and rejects other shapes", () => {
    expect(parsePodmanTime("2026-11-29 21:23:48.375834661 +0000 UTC")).toBeCloseTo(
      Date.UTC(2026, 10, 29, 21, 23, 48, 375) + 0.834661,
      3,
    );
    expect(parsePodmanTime("2026-11-29 14:23:48 -0700 PDT")).toBe(Date.UTC(2026, 10, 29, 21, 23, 48));
    expect(parsePodmanTime("3 seconds ago")).toBeNull();
  });

  it("systemctl show in any order, unknown numbers as null", () => {
    expect(
      parseUnitShow(["SubState=failed", "NRestarts=[not set]", "ActiveState=failed", "Result=start-limit-hit"]),
    ).toMatchObject({ activeState: "failed", nRestarts: null, result: "start-limit-hit" });
    expect(parseUnitShow(["garbage"])).toBeNull();
  });

  it("decodes a MESSAGE sent as a byte array and splits embedded newlines", () => {
    const bytes = [...Buffer.from("\u001b[1;36m(APIServer pid=1)\u001b[0m INFO a\nsecond")];
    const c = parseJournalChunk([JSON.stringify({ MESSAGE: bytes, __CURSOR: "s=1" }), "-- cursor: s=2"]);
    expect(c.messages).toEqual(["(APIServer pid=1) INFO a", "second"]);
    expect(c.cursor).toBe("s=2");
  });
});
