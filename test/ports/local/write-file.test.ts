// --report and --summary are checked before the run and written after it (issue 27, low): a symlink
// planted at the path in between must be replaced, never written through.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeNoFollow } from "../../../src/ports/local/write-file.js";

const dir = mkdtempSync(join(tmpdir(), "dg-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writing a report file", () => {
  it("replaces a symlink planted at the path instead of writing through it", () => {
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    const report = join(dir, "report.json");
    symlinkSync(victim, report);
    writeNoFollow(report, '{"schema":1}\n');
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(lstatSync(report).isSymbolicLink()).toBe(false);
    expect(readFileSync(report, "utf8")).toBe('{"schema":1}\n');
  });

  it("replaces an earlier report whole and leaves no temporary file behind", () => {
    const report = join(dir, "again.json");
    writeNoFollow(report, "first\n");
    writeNoFollow(report, "second\n");
    expect(readFileSync(report, "utf8")).toBe("second\n");
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
