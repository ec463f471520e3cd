// Hostile config values: names that could read as options, zero waits, alias bombs, huge files.
// Each ends in a ConfigError naming the key and what to write instead, never a hang or a stack trace.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/domain/config/load.js";
import { problems } from "./problems.js";

const ep = (extra: string) => `version: 1\nendpoints:\n  a:\n    script: s.sh\n${extra}`;

describe("hostile config values", () => {
  it("a service, container or unit name must start with a letter or digit", () => {
    expect(problems(ep("    service: --help.service\n")).map((p) => p.path)).toEqual(["endpoints.a.service"]);
    expect(problems(ep("    service: -x.service\n")).map((p) => p.path)).toEqual(["endpoints.a.service"]);
    expect(problems(ep("    container: -ctr\n")).map((p) => p.path)).toEqual(["endpoints.a.container"]);
    expect(problems(ep("    unit: deploy/-x.service\n")).map((p) => p.path)).toEqual(["endpoints.a.unit"]);
    expect(() =>
      parseConfig(
        ep("    service: frank-archon.service\n    container: ctr\n    unit: deploy/frank.service\n"),
        "x.yml",
      ),
    ).not.toThrow();
  });

  it("boot.poll: 0 and boot.timeout: 0 are refused", () => {
    expect(problems(ep("    boot: { poll: 0 }\n")).map((p) => p.path)).toEqual(["endpoints.a.boot.poll"]);
    expect(problems(ep("    boot: { timeout: 0s }\n")).map((p) => p.path)).toEqual(["endpoints.a.boot.timeout"]);
    expect(problems(ep("    lock: { staleAfter: 0 }\n")).map((p) => p.path)).toEqual(["endpoints.a.lock.staleAfter"]);
  });

  it("a YAML alias bomb is refused quickly with a line that says what to do", () => {
    const levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(",")}]`,
      );
    const t0 = Date.now();
    const p = problems(`version: 1\n${levels.join("\n")}\nendpoints:\n  a:\n    script: s.sh\n`);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(p).toHaveLength(1);
    expect(p[0]!.message).toMatch(/alias/i);
    expect(p[0]!.message).toMatch(/remove|write .* out/i);
  });

  it("an 8 MB config with hundreds of thousands of flags is refused by size, naming the limit", () => {
    const flags = Array.from({ length: 400_000 }, (_, i) => `        - --flag-${i}`).join("\n");
    const text = ep(`    contracts:\n      flags:\n${flags}\n`);
    expect(text.length).toBeGreaterThan(8_000_000);
    const p = problems(text);
    expect(p).toHaveLength(1);
    expect(p[0]!.message).toMatch(/larger than 1 MiB/);
  });
});

describe("paths in the config", () => {
  it("identityFile is relative to the config file, not the working directory", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadConfig } = await import("../../../src/domain/config/load.js");
    const dir = mkdtempSync(join(tmpdir(), "dg-idf-"));
    mkdirSync(join(dir, "ops"));
    writeFileSync(
      join(dir, "ops/deploy-gate.yml"),
      ep(
        "    host: { address: h, user: u, identityFile: keys/id_ed25519 }\n    peer: { address: p, user: u, identityFile: /abs/key }\n",
      ),
    );
    const c = loadConfig(join(dir, "ops/deploy-gate.yml"));
    expect(c.endpoints.a!.host!.identityFile).toBe(join(dir, "ops/keys/id_ed25519"));
    expect(c.endpoints.a!.peer!.identityFile).toBe("/abs/key");
  });
});
