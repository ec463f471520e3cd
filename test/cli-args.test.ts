import { describe, expect, it } from "vitest";
import { parseCli } from "../src/cli-args.js";
import { UsageError } from "../src/options.js";

describe("command-line arguments", () => {
  it("builds the options object", () => {
    const o = parseCli(["preflight", "--endpoint", "archon", "--json", "--base", "v1", "--no-color"], "/r");
    expect(o).toMatchObject({ command: "preflight", endpoint: "archon", json: true, base: "v1", noColor: true, cwd: "/r", config: null, ref: null });
  });
  it("takes explain's file", () => {
    expect(parseCli(["explain", "-"], "/r")).toMatchObject({ command: "explain", file: "-" });
  });
  it.each([
    [[], /missing command/],
    [["deploy"], /unknown command "deploy"/],
    [["preflight", "--bogus"], /Unknown option '--bogus'/],
    [["preflight", "extra"], /unexpected argument "extra"/],
    [["explain"], /exactly one FILE/],
    [["preflight", "--endpoint", "--json"], /--endpoint/],
  ])("refuses %j", (argv, msg) => {
    expect(() => parseCli(argv as string[], "/r")).toThrow(UsageError);
    expect(() => parseCli(argv as string[], "/r")).toThrow(msg);
  });
  it("answers help and version", () => {
    expect(parseCli(["-h"], "/r")).toBe("help");
    expect(parseCli(["--version"], "/r")).toBe("version");
  });
});
