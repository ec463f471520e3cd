import { describe, expect, it } from "vitest";
import { commandHelp, parseCli, SHORT_USAGE, USAGE } from "../../src/cli/args.js";
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

  it("-v/--verbose turns the trace on; -V and --version keep the version", () => {
    expect(parseCli(["preflight", "-v"], "/r")).toMatchObject({ verbose: true });
    expect(parseCli(["run", "--verbose"], "/r")).toMatchObject({ verbose: true });
    expect(parseCli(["preflight"], "/r")).toMatchObject({ verbose: false });
    expect(parseCli(["-V"], "/r")).toBe("version");
    expect(parseCli(["--version"], "/r")).toBe("version");
  });
  it("help COMMAND is COMMAND --help; help alone is the full help; a misspelt one is named", () => {
    expect(parseCli(["help", "run"], "/r")).toEqual({ help: "run" });
    expect(parseCli(["help"], "/r")).toBe("help");
    expect(() => parseCli(["help", "rnu"], "/r")).toThrow(/unknown command "rnu" \(did you mean "run"\?\)/);
  });
  it("bare deploy-gate is a short usage: the commands and where help is, no options table", () => {
    expect(parseCli([], "/r")).toBe("usage");
    expect(SHORT_USAGE).toMatch(/^usage: deploy-gate <command> \[options\]/);
    for (const c of COMMANDS) expect(SHORT_USAGE).toMatch(new RegExp(`^  ${c}\\b`, "m"));
    expect(SHORT_USAGE).toContain("deploy-gate help COMMAND");
    expect(SHORT_USAGE).not.toContain("--connect-timeout");
  });
  it("each command's help has EXAMPLES that parse as that command", () => {
    for (const c of COMMANDS) {
      const help = commandHelp(c);
      const block = help.split("\nexamples:\n")[1];
      expect(block, c).toBeTruthy();
      const lines = block!
        .split("\n\n")[0]!
        .split("\n")
        .filter((l) => l.startsWith("  deploy-gate "));
      expect(lines.length, c).toBeGreaterThan(0);
      for (const l of lines) {
        const argv = l
          .replace(/\s+#.*$/, "")
          .trim()
          .split(/\s+/)
          .slice(1);
        const parsed = parseCli(argv, "/r");
        expect(typeof parsed === "object" && "command" in parsed ? parsed.command : null, l).toBe(c);
      }
    }
  });
  it("--hosts accepts globs", () => {
    expect(parseCli(["run", "--hosts", "gpu*,cpu-[ab]"], "/r")).toMatchObject({ hosts: ["gpu*", "cpu-[ab]"] });
    expect(() => parseCli(["run", "--hosts", "gpu a"], "/r")).toThrow(/--hosts "gpu a"/);
  });
  it("lock acquire -m MESSAGE beside status and release; acquire needs the message", () => {
    expect(parseCli(["lock", "acquire", "-m", "swapping GPU 2", "--endpoint", "a"], "/r")).toMatchObject({
      lockAction: "acquire",
      message: "swapping GPU 2",
    });
    expect(() => parseCli(["lock", "acquire", "--endpoint", "a"], "/r")).toThrow(/lock acquire needs -m MESSAGE/);
    expect(() => parseCli(["lock", "status", "-m", "x"], "/r")).toThrow(/-m is for lock acquire/);
  });
});
