// The editor's schema: described, identified, and agreeing with the CLI's loader value for value.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../../src/lib/version.js";
import { DESCRIPTIONS } from "../../../src/domain/config/descriptions.js";
import { SCHEMA_ID, walkSchema } from "../../../src/domain/config/json-schema.js";
import { configJsonSchema as jsonSchema } from "../../../src/commands/schema.js";
import { parseConfig } from "../../../src/domain/config/load.js";
import { editorHover, editorProblems } from "../../helpers/yaml-editor.js";
import { TRAP_RULES } from "../../../src/domain/config/schema.js";

const schema = jsonSchema();

describe("JSON Schema of deploy-gate.yml", () => {
  it("has an $id, a title and a draft editors read", () => {
    expect(schema.$id).toBe(SCHEMA_ID);
    expect(schema.title).toBe("deploy-gate.yml");
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
  });

  it("is identified by the packaged file at this version's release tag, never a moving branch", () => {
    expect(SCHEMA_ID).toBe(
      `https://raw.githubusercontent.com/deploy-gate/deploy-gate/v${VERSION}/dist/deploy-gate.schema.json`,
    );
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../../package.json"), "utf8"));
    expect(pkg.files).toContain("dist");
    expect(existsSync(join(import.meta.dirname, "../../../dist/deploy-gate.schema.json"))).toBe(true);
  });

  // After a merge adds keys to src/config/schema.ts, this names each one that needs a description.
  it("describes every key (add missing ones to src/config/descriptions.ts)", () => {
    const undescribed: string[] = [];
    walkSchema(schema as never, (path, node) => {
      if (!node.description) undescribed.push(path || "(root)");
    });
    expect(undescribed).toEqual([]);
  });

  it("offers each trap rule as a key with why it matters", () => {
    const paths = new Map<string, string>();
    walkSchema(schema as never, (path, node) => paths.set(path, String(node.description)));
    expect(paths.get("endpoints.*.traps.memlock")).toMatch(/^memlock \(default (warn|fail)\): .{20,}/);
    expect(
      [...paths.keys()].filter((p) => p.startsWith("endpoints.*.traps.") && p !== "endpoints.*.traps.*"),
    ).toHaveLength(TRAP_RULES.length);
  });

  it("has no description for a key the schema no longer has", () => {
    const paths = new Set<string>();
    walkSchema(schema as never, (path) => paths.add(path));
    expect(Object.keys(DESCRIPTIONS).filter((k) => !paths.has(k))).toEqual([]);
  });

  // Each case: a piece of an endpoint; the CLI and the editor must agree on it.
  const base = "version: 1\nendpoints:\n  a:\n    script: s.sh\n";
  const cases: [string, string][] = [
    [
      "capitalised user",
      '    host: { address: h, user: Dank, hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8" }\n',
    ],
    ["user starting with a digit", "    host: { address: h, user: 1dank }\n"],
    ["duration in words", "    boot: { timeout: 20 minutes }\n"],
    ["duration compound", "    boot: { timeout: 1h30m, poll: 750ms }\n"],
    ["duration in seconds", "    boot: { timeout: 90 }\n"],
    ["negative duration", "    boot: { timeout: -5 }\n"],
    ["duration with spaces inside", "    lock: { staleAfter: 1h 30m }\n"],
    ["ftp url", "    url: ftp://h/x\n"],
    ["http url", "    url: http://gpu1.lan:7770\n"],
    ["jump host", "    host: { address: h, user: u, jump: { address: b, user: ops } }\n"],
    [
      "jump of a jump",
      "    host: { address: h, user: u, jump: { address: b, user: ops, jump: { address: c, user: x } } }\n",
    ],
    ["unknown trap rule", "    traps: { memlok: off }\n"],
    ["trap level", "    traps: { memlock: warn }\n"],
    ["mode", '    install: [{ from: a, to: /x, mode: "755" }]\n'],
    ["bad mode", '    install: [{ from: a, to: /x, mode: "0855" }]\n'],
    ["relative install target", "    install: [{ from: a, to: x }]\n"],
    ["port as text", '    host: { address: h, user: u, port: "22" }\n'],
    ["port out of range", "    host: { address: h, user: u, port: 70000 }\n"],
    ["flag spec", '    contracts: { flags: ["--reasoning-parser qwen3", "-tp 2"] }\n'],
    ["flag without dashes", '    contracts: { flags: ["reasoning-parser"] }\n'],
    ["unknown endpoint key", "    unti: x\n"],
  ];
  // The editor here is the YAML language server itself, reading the schema as VS Code's YAML extension does.
  it.each(cases)("the editor agrees with the CLI on: %s", async (_name, extra) => {
    const text = base + extra;
    let cli: string | null = null;
    try {
      parseConfig(text, "x.yml");
    } catch (e) {
      cli = (e as Error).message;
    }
    const editor = await editorProblems(text);
    expect(editor.length === 0, `CLI: ${cli ?? "accepted"}; editor: ${editor.join("; ") || "accepted"}`).toBe(
      cli === null,
    );
  });

  it("the editor agrees on configs with no endpoint and on a wrong version", async () => {
    for (const text of ["version: 1\nendpoints: {}\n", "version: 2\nendpoints:\n  a: { script: s.sh }\n"]) {
      expect(() => parseConfig(text, "x.yml")).toThrow();
      expect(await editorProblems(text)).not.toEqual([]);
    }
  });

  it("the editor shows the description as hover text", async () => {
    const text = `${base}    host: { address: h, user: u, jump: { address: b, user: ops } }\n    traps: { memlock: warn }\n`;
    expect(await editorHover(text, 4, 6)).toContain("The serve script, relative to this config file.");
    expect(await editorHover(text, 5, 40)).toContain("A jump host to reach the host through (like ssh -J).");
    expect(await editorHover(text, 6, 15)).toMatch(/memlock \(default (warn|fail)\): /);
  });

  it("the editor's errors speak like the CLI: no raw regular expression, and a misspelt key gets the nearest one", async () => {
    const text = `version: 1
endpoints:
  a:
    script: s.sh
    boot: { timeout: soon }
    scrpit: s.sh
    host: { address: "a b", hostKey: "md5:xx" }
`;
    const problems = (await editorProblems(text)).join("\n");
    expect(problems).not.toMatch(/pattern|\^\[|\]\*\$|\\d/);
    expect(problems).toMatch(/5: .*expected a duration such as "20m"/);
    expect(problems).toMatch(/7: .*expected a host name or IP address/);
    expect(problems).toMatch(/7: .*expected an OpenSSH fingerprint/);
    expect(problems).toMatch(/6: unknown key: did you mean "script"\?/);
  });

  it("every pattern carries the CLI's message, and a near-miss pattern never matches a real key", () => {
    const bare: string[] = [];
    const clash: string[] = [];
    walkSchema(schema as never, (path, node) => {
      if (node.pattern && !node.patternErrorMessage) bare.push(path);
      const n = node as { patternProperties?: Record<string, unknown>; properties?: Record<string, unknown> };
      for (const re of Object.keys(n.patternProperties ?? {}))
        for (const k of Object.keys(n.properties ?? {})) if (new RegExp(re).test(k)) clash.push(`${path}.${k}`);
    });
    expect(bare).toEqual([]);
    expect(clash).toEqual([]);
  });
});
