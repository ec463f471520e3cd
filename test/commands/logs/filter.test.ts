// logs -n N and --grep REGEX: what is shown of a boot, never what is diagnosed. A journalctl -o json dump
// (the crash-loop fixture, real journald fields) replayed as the host's output.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCli } from "../../../src/cli/args.js";
import { logsRequest, printBoot } from "../../../src/commands/logs/logs.js";
import type { Options } from "../../../src/commands/options.js";
import type { Host } from "../../../src/ports/host/host.js";

const DUMP = readFileSync(
  join(import.meta.dirname, "../../fixtures/journal/classes/crash-loop.journal.json"),
  "utf8",
).split("\n");

/** The host's journalctl, as its lines arrive over SSH. */
const replay: Host = {
  name: "gpu1",
  run: () => Promise.reject(new Error("unused")),
  runShell: () => Promise.reject(new Error("unused")),
  writeFile: () => Promise.reject(new Error("unused")),
  async stream(_argv, onLine) {
    for (const l of DUMP) if (l) onLine(l, "stdout");
    return { code: 0, signal: null, stdout: "", stderr: "", timedOut: false, truncated: false, durationMs: 1 };
  },
  close: async () => {},
};

async function shown(argv: string[]): Promise<string[]> {
  const opts = parseCli(["logs", ...argv], "/r") as Options;
  const req = logsRequest(opts, "archon", "frank-archon.service", "frank-archon-qwen");
  let out = "";
  expect(await printBoot(replay, req, { out: (s) => (out += s), err: () => {}, colour: false })).toBe(0);
  return out.split("\n");
}

/** The boot's lines as printed: between its header and its diagnosis. */
const body = (lines: string[]) => lines.slice(1, lines.indexOf("-- diagnosis of this boot --"));
const diagnosis = (lines: string[]) => lines.slice(lines.indexOf("-- diagnosis of this boot --")).join("\n");

describe("logs -n and --grep", () => {
  it("-n N shows the boot's last N lines; the diagnosis still reads the whole boot", async () => {
    const all = await shown([]);
    const last2 = await shown(["-n", "2"]);
    expect(body(all).length).toBeGreaterThan(2);
    expect(body(last2)).toEqual(body(all).slice(-2));
    expect(diagnosis(last2)).toBe(diagnosis(all));
    expect(diagnosis(all)).toMatch(/CRASH-LOOP/);
  });
  it("--grep shows only the lines matching, -n counts among them", async () => {
    const hits = body(await shown(["--grep", "restart counter|repeated"]));
    expect(hits.length).toBe(2);
    for (const l of hits) expect(l).toMatch(/restart counter|repeated/);
    expect(body(await shown(["--grep", "restart counter|repeated", "-n", "1"]))).toEqual(hits.slice(-1));
  });
  it("refuses a count that is not a positive whole number, and a pattern that does not compile", () => {
    for (const bad of ["0", "ten"])
      expect(() => logsRequest(parseCli(["logs", "-n", bad], "/r") as Options, "a", "s", null)).toThrow(
        /-n .*: expected a whole number/,
      );
    expect(() => logsRequest(parseCli(["logs", "--grep", "(x"], "/r") as Options, "a", "s", null)).toThrow(
      /--grep \(x: not a regular expression/,
    );
  });
});
