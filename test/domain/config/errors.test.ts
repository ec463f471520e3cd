// Config errors as a user reads them: expected vs found, "did you mean" at every level, line order.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/domain/config/load.js";
import type { ConfigError } from "../../../src/domain/config/errors.js";
import { problems } from "./problems.js";

describe("config errors", () => {
  it("names what is wrong with an endpoint name, a second YAML document and a UTF-16 file, in the user's terms", () => {
    const name = problems('version: 1\nendpoints:\n  "a b/../c":\n    script: s.sh\n');
    expect(name).toEqual([
      {
        line: 3,
        path: "endpoints.a b/../c",
        message: 'expected an endpoint name (letters, digits, _ . -); found "a b/../c": rename it',
      },
    ]);
    expect(problems("version: 1\n---\nversion: 1\n")[0]!.message).toMatch(
      /^more than one YAML document \(a second `---`\)/,
    );
    const utf16 = Buffer.from("\ufeffversion: 1\nendpoints: {}\n", "utf16le").toString("utf8");
    expect(problems(utf16)[0]!.message).toMatch(/^the file is UTF-16, not UTF-8: save it as UTF-8/);
  });

  it("says what was expected and what was found, not 'missing', for a value of the wrong type", () => {
    const p = problems(`version: 1
endpoints:
  a:
    script: 5
    host: { address: h, user: u, port: "22" }
    contracts: { thinking: yes, flags: "--x" }
`);
    const at = (path: string) => p.find((x) => x.path === path)!.message;
    expect(at("endpoints.a.script")).toBe("expected text, found 5 (a number)");
    expect(at("endpoints.a.host.port")).toBe('expected a number, found "22" (text)');
    expect(at("endpoints.a.contracts.thinking")).toBe('expected true or false, found "yes" (text)');
    expect(at("endpoints.a.contracts.flags")).toBe('expected a list, found "--x" (text)');
    expect(p.map((x) => x.message).join("\n")).not.toContain("missing");
  });

  it("still says 'missing' for a key that is absent, and names an empty value as such", () => {
    const p = problems("version: 1\nendpoints:\n  a:\n    script: s.sh\n    rollback: { auto: true }\n    model:\n");
    expect(p.find((x) => x.path === "endpoints.a.rollback.ref")!.message).toBe(
      "required key is missing (expected text)",
    );
    expect(p.find((x) => x.path === "endpoints.a.model")!.message).toBe("expected text, found an empty value");
  });

  it("suggests from the keys allowed at that place: endpoint, contracts, host, jump host, trap rules", () => {
    const p = problems(`version: 1
endpoints:
  a:
    scrpit: s.sh
    host: { address: h, user: u, hostkey: "x", jump: { address: j, user: u, prot: 22 } }
    contracts: { flgs: [] }
    traps: { memlok: off }
`);
    const msg = (path: string) => p.find((x) => x.path === path)!.message;
    expect(msg("endpoints.a.scrpit")).toContain('did you mean "script"?');
    expect(msg("endpoints.a.host.hostkey")).toContain('did you mean "hostKey"?');
    expect(msg("endpoints.a.host.jump.prot")).toContain('did you mean "port"?');
    expect(msg("endpoints.a.host.jump.prot")).not.toContain("jump,"); // a jump host has no jump of its own
    expect(msg("endpoints.a.contracts.flgs")).toMatch(/did you mean "flags"\? Allowed here: flags, env/);
    expect(msg("endpoints.a.traps.memlok")).toContain('did you mean "memlock"?');
  });

  it("lists problems in the order of their lines", () => {
    const p = problems(`version: 2
endpoints:
  a:
    traps: { memlock: maybe }
    contracts: { restarts: -1 }
    boot: { timeout: 20 minutes }
    zzz: 1
`);
    const lines = p.map((x) => x.line);
    expect(lines).toEqual([...lines].sort((x, y) => (x ?? 99) - (y ?? 99)));
    expect(lines[0]).toBe(1);
    expect(p.find((x) => x.path === "endpoints.a.boot.timeout")!.message).toBe(
      'expected a duration such as "20m", "5s", "1h30m" or a number of seconds; found "20 minutes" (text)',
    );
  });

  it("accepts what the editor's schema accepts: a capitalised user name, a jump host", () => {
    const c = parseConfig(
      `version: 1
endpoints:
  a:
    script: s.sh
    host: { address: gpu1, user: Dank, hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8", jump: { address: bastion, user: ops, knownHosts: "bastion ssh-ed25519 AAAA" } }
`,
      "x.yml",
    );
    expect(c.endpoints.a!.host!.user).toBe("Dank");
    expect(c.endpoints.a!.host!.jump).toMatchObject({ address: "bastion", port: 22 });
  });

  it("a misspelt key is the mistake: one problem naming it, not 'required key missing' for the key it displaced", () => {
    const p = problems("version: 1\nendpoint:\n  a:\n    script: s.sh\n");
    expect(p).toEqual([
      {
        line: 2,
        path: "endpoint",
        message:
          'unknown key "endpoint": did you mean "endpoints"? (it is required, and missing) Allowed here: version, endpoints.',
      },
    ]);
    const nested = problems("version: 1\nendpoints:\n  a:\n    script: s.sh\n    rollback: { rf: v1 }\n");
    expect(nested.map((x) => x.path)).toEqual(["endpoints.a.rollback.rf"]);
  });

  it("shows the file relative to where the command runs", () => {
    try {
      parseConfig("version: 2\n", "/repo/ci/deploy-gate.yml");
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).render("/repo")).toMatch(/^ci\/deploy-gate\.yml:1: version: /);
      expect((e as ConfigError).render("/elsewhere/deep/down/x")).toMatch(/^\/repo\/ci\/deploy-gate\.yml:1: /);
    }
  });
});
