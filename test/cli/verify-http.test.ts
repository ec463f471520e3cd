// `deploy-gate verify --url URL` and an endpoint that is a url: alone, through main() as the bin runs it:
// the exit code contract (0 pass, 1 a check failed, 2 the gate could not judge) and the JSON report,
// against the engine double on loopback. No git repository, no SSH.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCli } from "../../src/cli/args.js";
import { main, type Io } from "../../src/cli/main.js";
import type { Options } from "../../src/commands/options.js";
import type { Report } from "../../src/domain/report/finding.js";
import { closedPort } from "../helpers/closed-port.js";
import { engineDoubles } from "../helpers/engine-double.js";

const doubles = engineDoubles();
const dirs: string[] = [];
afterAll(() => {
  doubles.stopAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const io: Io = { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env, cwd };
  const code = await main(argv, io);
  return { code, out, err };
}
const emptyDir = () => {
  const d = mkdtempSync(join(tmpdir(), "dg-http-"));
  dirs.push(d);
  return d;
};

describe("verify over HTTP alone, from the command line", () => {
  it("--url with no config and no repository: exit 0 on a faithful engine, the report says what was skipped", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const r = await cli(["verify", "--url", url, "--json"], emptyDir());
    expect(r.err).not.toMatch(/internal error/);
    const report = JSON.parse(r.out) as Report;
    expect(r.code).toBe(0);
    expect(report.command).toBe("verify");
    const status = Object.fromEntries(report.findings.map((f) => [f.check, f.status]));
    expect(status).toMatchObject({ "verify.models": "pass", "verify.liveness": "pass", "verify.kv-capacity": "pass" });
    expect(status["verify.restarts"]).toBe("skip");
  });

  it("a url:-only endpoint in deploy-gate.yml: its contracts apply; a broken one exits 1", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const dir = emptyDir();
    writeFileSync(
      join(dir, "deploy-gate.yml"),
      `version: 1\nendpoints:\n  chat:\n    script: serve.sh\n    url: ${url}\n    model: qwen\n    contracts:\n      thinking: true\n`,
    );
    const r = await cli(["verify", "--json"], dir);
    const report = JSON.parse(r.out) as Report;
    expect(report.findings.find((f) => f.check === "verify.thinking")!.status).toBe("fail");
    expect(r.code).toBe(1);
  });

  it("exit 2 when the gate could not judge: an unreachable endpoint, a --url that is no http(s) URL", async () => {
    const r = await cli(["verify", "--url", `http://127.0.0.1:${await closedPort()}`, "--json"], emptyDir());
    expect(r.code).toBe(2);
    expect((JSON.parse(r.out) as Report).findings[0]).toMatchObject({ check: "verify.models", status: "fail" });
    expect((await cli(["verify", "--url", "ftp://x"], emptyDir())).code).toBe(2);
    const withUser = await cli(["verify", "--url", "http://u:secret@127.0.0.1:1"], emptyDir());
    expect(withUser.code).toBe(2);
    expect(withUser.err).toMatch(/--url must not carry a user or password/);
    expect(withUser.err).not.toContain("secret");
  });

  it("--rollout-start takes ISO 8601 with a zone, @EPOCH or a duration ago, and refuses the rest (exit 2)", async () => {
    const at = (v: string) =>
      (parseCli(["verify", "--url", "http://x:1", "--rollout-start", v], "/") as Options).rolloutStartMs;
    expect(at("2026-12-03T02:40:00Z")).toBe(Date.parse("2026-12-03T02:40:00Z"));
    expect(at("@1796265000")).toBe(1796265000_000);
    const ago = Date.now() - at("15m")!;
    expect(ago).toBeGreaterThanOrEqual(15 * 60_000);
    expect(ago).toBeLessThan(15 * 60_000 + 60_000);
    for (const bad of ["soon", "2026-12-03 02:40", "2026-12-03T02:40:00"])
      expect(() => at(bad), bad).toThrow(/--rollout-start .*expected an ISO 8601 time with its zone/);
    expect((await cli(["verify", "--url", "http://127.0.0.1:1", "--rollout-start", "soon"], emptyDir())).code).toBe(2);
  });

  it("the API key from DEPLOY_GATE_API_KEY is sent and never printed; without it the gate cannot judge (2)", async () => {
    const url = await doubles.start(["--max-model-len", "8192", "--api-key", "sk-live-7f3a9c"]);
    const ok = await cli(["verify", "--url", url, "--json"], emptyDir(), { DEPLOY_GATE_API_KEY: "sk-live-7f3a9c" });
    expect(ok.code).toBe(0);
    expect(ok.out + ok.err).not.toContain("sk-live-7f3a9c");
    const refused = await cli(["verify", "--url", url, "--json"], emptyDir());
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.out) as Report).findings[0]!.fix).toMatch(/DEPLOY_GATE_API_KEY \(it is unset\)/);
  });
});
