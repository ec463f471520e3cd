// `logs` on the command line: its flags parse, and belong to it alone.
import { describe, expect, it } from "vitest";
import { parseCli } from "../../../src/cli/args.js";

describe("logs arguments", () => {
  it("parses --boot, --since, --follow and --json", () => {
    const o = parseCli(["logs", "--endpoint", "e1", "--boot", "previous", "--since", "2h", "--json"], "/r");
    expect(o).toMatchObject({
      command: "logs",
      endpoint: "e1",
      boot: "previous",
      since: "2h",
      follow: false,
      json: true,
    });
    expect(parseCli(["logs", "--follow"], "/r")).toMatchObject({ command: "logs", follow: true, boot: null });
  });

  it("--boot/--since/--follow on another command is a usage error", () => {
    expect(() => parseCli(["verify", "--follow"], "/r")).toThrow(
      /--follow does not apply to verify \(it applies to logs\)/,
    );
  });
});
