import { describe, expect, it } from "vitest";
import { commandHelp, parseCli, USAGE } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/commands/spec.js";
import { UsageError } from "../../src/commands/options.js";

describe("command-line arguments", () => {
  it("builds the options object", () => {
    const o = parseCli(["preflight", "--endpoint", "archon", "--json", "--base", "v1", "--no-color"], "/r");
    expect(o).toMatchObject({
      command: "preflight",
      endpoint: "archon",
      json: true,
      base: "v1",
      noColor: true,
      cwd: "/r",
      config: null,
      ref: null,
    });
  });
  it("takes explain's file", () => {
    expect(parseCli(["explain", "-"], "/r")).toMatchObject({ command: "explain", file: "-" });
  });
  it.each([
    [[], /missing command/],
    [["deploy"], /unknown command "deploy"/],
    [["preflight", "--bogus"], /unknown option --bogus; see deploy-gate preflight --help/],
    [["preflight", "--josn"], /unknown option --josn \(did you mean "--json"\?\)/],
    [["run", "--skip-prefligt"], /did you mean "--skip-preflight"/],
    [["prefligt"], /unknown command "prefligt" \(did you mean "preflight"\?\)/],
    [["verfy", "--endpoint", "a"], /did you mean "verify"/],
    [["preflight", "--dry-run"], /--dry-run does not apply to preflight \(it applies to run, rollback\)/],
    [["schema", "--endpoint", "a"], /--endpoint does not apply to schema/],
    [["run", "--connect-timeout", "soon"], /--connect-timeout "soon": expected a duration/],
    [["preflight", "extra"], /unexpected argument "extra"/],
    [["explain"], /exactly one FILE/],
    [["preflight", "--endpoint", "--json"], /--endpoint/],
    [["preflight", "--ref", "-x"], /--ref needs a value, and the next argument starts with "-": write --ref=VALUE/],
  ])("refuses %j", (argv, msg) => {
    expect(() => parseCli(argv as string[], "/r")).toThrow(UsageError);
    expect(() => parseCli(argv as string[], "/r")).toThrow(msg);
  });
  it("answers help and version", () => {
    expect(parseCli(["-h"], "/r")).toBe("help");
    expect(parseCli(["--version"], "/r")).toBe("version");
    expect(parseCli(["run", "--help"], "/r")).toEqual({ help: "run" });
    expect(parseCli(["-h", "explain"], "/r")).toEqual({ help: "explain" });
  });
  it("reads --quiet, -q and --connect-timeout", () => {
    expect(parseCli(["verify", "-q", "--connect-timeout", "45s"], "/r")).toMatchObject({
      quiet: true,
      connectTimeoutMs: 45_000,
    });
    expect(parseCli(["preflight"], "/r")).toMatchObject({ quiet: false, connectTimeoutMs: null });
  });
  it("per-command help lists that command's options only; the general help lists every command", () => {
    const run = commandHelp("run");
    expect(run).toMatch(/^usage: deploy-gate run \[options\]/);
    for (const o of ["--skip-preflight", "--dry-run", "--lock-wait DURATION", "--connect-timeout", "--quiet"])
      expect(run).toContain(o);
    const pre = commandHelp("preflight");
    expect(pre).toContain("--base REF");
    expect(pre).not.toContain("--dry-run");
    expect(commandHelp("explain")).toMatch(/^usage: deploy-gate explain FILE\|- \[options\]/);
    for (const c of COMMANDS) expect(USAGE).toMatch(new RegExp(`^  ${c}\\b`, "m"));
  });
});
