import { describe, expect, it } from "vitest";
import { parseConfig, requireFor } from "../../../src/domain/config/load.js";
import { problems } from "./problems.js";
import { configJsonSchema as jsonSchema } from "../../../src/commands/schema.js";
import { closest } from "../../../src/lib/did-you-mean.js";

describe("deploy-gate.yml loader", () => {
  it("accepts the minimal preflight config and fills defaults", () => {
    const c = parseConfig("version: 1\nendpoints:\n  archon:\n    script: scripts/serve.sh\n", "x.yml");
    const ep = c.endpoints.archon!;
    expect(ep.contracts.flags).toEqual([]);
    expect(ep.contracts.restarts).toBe(0);
    expect(ep.boot.timeout).toBe(20 * 60_000);
    expect(ep.boot.poll).toBe(5000);
    expect(ep.host).toBeUndefined();
  });

  it("parses durations and the full DESIGN example", () => {
    const c = parseConfig(
      `version: 1
endpoints:
  archon:
    script: scripts/serve-archon.sh
    unit: deploy/frank-archon.service
    service: frank-archon.service
    container: frank-archon-qwen
    host: { address: gpu1.lan, port: 22, user: dank, hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8" }
    install:
      - { from: scripts/serve-archon.sh, to: /home/dank/serve_archon.sh, mode: "0755" }
    url: http://gpu1.lan:7770
    model: qwen
    boot: { timeout: 1h30m, poll: 5s }
    rollback: { ref: frank-archon-vllm-shapeG-20261003, auto: true }
    contracts:
      flags: ["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"]
      env: [VLLM_LOGGING_LEVEL]
      kv: { minTokens: 300000, requests: 4 }
      thinking: true
      tools: true
    traps: { memlock: off }
`,
      "x.yml",
    );
    const ep = c.endpoints.archon!;
    expect(ep.boot.timeout).toBe(90 * 60_000);
    expect(ep.install![0]!.mode).toBe("0755");
    expect(ep.traps.memlock).toBe("off");
    expect(ep.host!.port).toBe(22);
  });

  it("points at a mistyped top-level key with its line and a suggestion", () => {
    const p = problems("version: 1\nendpionts:\n  a:\n    script: x.sh\n");
    const typo = p.find((x) => x.path === "endpionts")!;
    expect(typo.line).toBe(2);
    expect(typo.message).toContain('did you mean "endpoints"');
  });

  it("points at nested typos, bad values and missing keys by line", () => {
    const p = problems(`version: 1
endpoints:
  archon:
    contracts:
      flags: ["reasoning-parser"]
      thinkng: true
    boot: { timeout: 20q }
    traps: { memlok: off }
`);
    const at = (path: string) => p.find((x) => x.path === path);
    expect(at("endpoints.archon.contracts.thinkng")?.line).toBe(6);
    expect(at("endpoints.archon.contracts.thinkng")?.message).toContain('"thinking"');
    expect(at("endpoints.archon.boot.timeout")?.line).toBe(7);
    expect(at("endpoints.archon.contracts.flags.0")?.line).toBe(5);
    expect(at("endpoints.archon.script")?.message).toContain("missing");
    expect(p.some((x) => x.path.startsWith("endpoints.archon.traps") && x.line === 8)).toBe(true);
  });

  it("reports YAML syntax errors with their line", () => {
    const p = problems("version: 1\nendpoints:\n  a:\n    script: [unclosed\n");
    expect(p[0]!.message).toMatch(/YAML syntax/);
    expect(p[0]!.line).toBeGreaterThanOrEqual(4);
  });

  it("rejects a bad host key pin and a relative install target", () => {
    const p = problems(`version: 1
endpoints:
  a:
    script: s.sh
    host: { address: h, user: u, hostKey: "MD5:aa" }
    install: [{ from: s.sh, to: relative/path }]
`);
    expect(p.map((x) => x.path)).toEqual(
      expect.arrayContaining(["endpoints.a.host.hostKey", "endpoints.a.install.0.to"]),
    );
  });

  it("requireFor names each field a stage needs", () => {
    const c = parseConfig("version: 1\nendpoints:\n  a:\n    script: s.sh\n", "x.yml");
    expect(() => requireFor("a", c.endpoints.a!, "deploy", ["host", "service"], "x.yml")).toThrow(
      /endpoints\.a\.host: required by deploy[\s\S]*endpoints\.a\.service/,
    );
  });

  it("exports a JSON Schema that knows every endpoint key", () => {
    const s = JSON.stringify(jsonSchema());
    for (const k of ["script", "contracts", "rollback", "traps", "render-nodes", "additionalProperties"])
      expect(s).toContain(k);
  });

  it("closest() suggests only near misses", () => {
    expect(closest("endpionts", ["version", "endpoints"])).toBe("endpoints");
    expect(closest("zzz", ["version", "endpoints"])).toBeNull();
  });
});
