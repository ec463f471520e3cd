// The poll script run by a real sh against stub systemctl/podman/journalctl: quoting and the section protocol.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pollScript } from "../../../src/stages/deploy/poll-command.js";
import { parsePoll, splitSections } from "../../../src/stages/deploy/poll-parse.js";
import { modelsListed } from "../../../src/stages/deploy/wait.js";

function stubs(): string {
  const bin = mkdtempSync(join(tmpdir(), "dg-stub-"));
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  // Each stub prints its argv one per line so the test sees exactly what the host would get.
  stub(
    "systemctl",
    `for a in "$@"; do echo "arg:$a"; done; echo ActiveState=active; echo SubState=running; echo NRestarts=0`,
  );
  stub("podman", `for a in "$@"; do echo "arg:$a"; done; echo "no such container" >&2; exit 125`);
  stub("journalctl", `for a in "$@"; do echo "arg:$a"; done; exit 1`);
  return bin;
}

describe("pollScript", () => {
  it("passes each value as one argument, keeps going past failing sections, and parses", () => {
    const bin = stubs();
    const script = pollScript({
      service: "frank-archon.service",
      container: "frank-archon-qwen",
      cursor: "s=ab;i=1;x=$(touch /tmp/pwned)",
      sinceHostS: 0,
    });
    const out = execFileSync("sh", ["-c", script], { encoding: "utf8", env: { PATH: `${bin}:/usr/bin:/bin` } });
    const s = splitSections(out);
    expect(s.get("ps")?.rc).toBe(125);
    expect(s.get("journal")?.rc).toBe(1);
    expect(s.get("journal")?.body).toContain("arg:--after-cursor=s=ab;i=1;x=$(touch /tmp/pwned)");
    expect(s.get("journal")?.body).toEqual(
      expect.arrayContaining([
        "arg:CONTAINER_NAME=frank-archon-qwen",
        "arg:+",
        "arg:_SYSTEMD_UNIT=frank-archon.service",
        "arg:UNIT=frank-archon.service",
      ]),
    );
    expect(s.get("ps")?.body).toContain("arg:{{.Id}} {{.State.Status}} {{.State.ExitCode}} {{.Created}}");
    const p = parsePoll(out);
    expect(p.hostNowMs).toBeGreaterThan(1_700_000_000_000);
    expect(p.unit?.activeState).toBe("active");
    expect(p.container).toBeNull();
    expect(p.errors).toEqual([]);
  });
});

describe("modelsListed", () => {
  it("wants the served model in /v1/models", () => {
    const body = JSON.stringify({ object: "list", data: [{ id: "qwen", object: "model" }] });
    expect(modelsListed(body, "qwen")).toBe(true);
    expect(modelsListed(body, "llama")).toBe(false);
    expect(modelsListed(body, undefined)).toBe(true);
    expect(modelsListed("<html>", "qwen")).toBe(false);
  });
});
