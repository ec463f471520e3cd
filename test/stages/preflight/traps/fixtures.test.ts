// Every trap rule has a fixture that trips it (and only it) and one that passes every rule.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRAP_RULES } from "../../../../src/domain/config/schema.js";
import { checkTraps } from "../../../../src/stages/preflight/traps/check-traps.js";
import { parseServeScript } from "../../../../src/domain/launch/parse.js";

const ROOT = join(import.meta.dirname, "../../../fixtures/launch/traps");

function run(dir: string, kind: "trip" | "pass") {
  const scriptName = existsSync(join(dir, `${kind}.sh`)) ? `${kind}.sh` : "serve.sh";
  const unitName = `${kind}.service`;
  const scriptPath = join(dir, scriptName);
  const unitPath = join(dir, unitName);
  const unit = existsSync(unitPath) ? { path: unitPath, text: readFileSync(unitPath, "utf8") } : null;
  const script = parseServeScript(readFileSync(scriptPath, "utf8"));
  return { findings: checkTraps({ script, scriptPath, unit }, {}), scriptPath, unitPath };
}

describe("trap fixtures", () => {
  it("has a fixture directory for every rule in the config schema", () => {
    expect(readdirSync(ROOT).sort()).toEqual([...TRAP_RULES].sort());
  });

  for (const rule of TRAP_RULES) {
    const dir = join(ROOT, rule);
    describe(rule, () => {
      it("trips on its trip fixture, at the expected line, and no other rule trips", () => {
        const expected = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as {
          file: string;
          line: number;
          secret?: string;
        };
        const { findings } = run(dir, "trip");
        expect(findings.length).toBeGreaterThan(0);
        expect(findings.map((f) => f.data?.rule)).toEqual(findings.map(() => rule));
        const first = findings[0]!;
        expect(first.status).not.toBe("pass");
        expect(first.file).toBe(join(dir, expected.file));
        expect(first.line).toBe(expected.line);
        expect(first.evidence?.length).toBeGreaterThan(0);
        expect(first.fix).toBeTruthy();
        if (expected.secret) expect(JSON.stringify(findings)).not.toContain(expected.secret);
      });

      it("passes on its pass fixture", () => {
        const { findings } = run(dir, "pass");
        expect(findings).toHaveLength(1);
        expect(findings[0]!.status).toBe("pass");
      });

      it("has fixtures bash accepts", () => {
        for (const f of readdirSync(dir).filter((n) => n.endsWith(".sh"))) {
          expect(() => execFileSync("bash", ["-n", join(dir, f)], { stdio: "pipe", timeout: 10_000 })).not.toThrow();
        }
      });
    });
  }
});
