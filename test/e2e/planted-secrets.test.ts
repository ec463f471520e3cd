// Planted secrets on the sandbox host: distinct values in the serve script (a `set -x` trace and echoed
// connection strings: the unit's output in the journal), in the container's env (declared knobs), and in
// the journal the engine writes. Every command's every output (terminal, JSON, job summary, annotations,
// progress on stderr) is grepped for each value: zero hits.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { annotationsOf } from "../../src/domain/report/annotations.js";
import type { Report } from "../../src/domain/report/finding.js";
import { makeSandboxRepo, removeDeployed, withSandboxHost, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { leaks, PLANTED } from "../domain/report/planted-secrets.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";

/** The commands whose outputs are grepped, each with the argv after the command name. One line per command. */
const COMMANDS: [string, (ep: string, dumpFile: string) => string[]][] = [
  ["preflight", (ep) => ["--endpoint", ep]],
  ["run", (ep) => ["--endpoint", ep, "--skip-preflight"]],
  ["verify", (ep) => ["--endpoint", ep]],
  ["explain", (_ep, dump) => [dump]],
  ["logs", (ep) => ["--endpoint", ep]],
];

describe("planted secrets never leave the host in clear", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let repo: SandboxRepo;
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    const name = fresh("dg-secrets");
    // env: a token by name, a knob whose name says nothing but whose value is a key
    repo = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: 7995,
      address: s.address,
      fakeEnv: {
        FAKE_BOOT_SECONDS: "2",
        HF_TOKEN: PLANTED.hfToken,
        MY_APP_TOKEN: PLANTED.customToken,
        VLLM_S3_ACCESS: PLANTED.knobValue,
      },
    });
    repo.commit("pin the sandbox host; plant secrets", (root) => {
      const p = join(root, "deploy-gate.yml");
      writeFileSync(
        p,
        withSandboxHost(readFileSync(p, "utf8"), s, { contractExtra: "      env: [VLLM_S3_ACCESS, MY_APP_TOKEN]\n" }),
      );
      const sh = join(root, "scripts/serve.sh");
      writeFileSync(
        sh,
        readFileSync(sh, "utf8").replace(
          "set -euo pipefail\n",
          [
            "set -euo pipefail",
            `echo "connecting to postgres://vllm:${PLANTED.urlPassword}@db.internal:5432/metrics" >&2`,
            `echo "Authorization: Basic ${PLANTED.basicAuth}" >&2`,
            `echo "X-Api-Key: ${PLANTED.xApiKey}" >&2`,
            `echo "DB_PASSWORD=${PLANTED.dbPassword} SERVICE_SECRET=${PLANTED.customSecret} --api-key ${PLANTED.apiKey}" >&2`,
            // issue 27's forms: an empty URL user, "@" in a URL password, an argv as a Python list, a flag
            // and its value spaces or a tab apart, a passphrase variable
            `echo "cache at redis://:${PLANTED.emptyUserUrlPw}@cache:6379/0" >&2`,
            `echo "connecting to postgres://app:${PLANTED.atUrlPw}@db.internal/serve" >&2`,
            `echo "Command '['vllm', 'serve', '--api-key', '${PLANTED.listArgKey}']' returned non-zero exit status 1." >&2`,
            `echo "launching with --api-key    ${PLANTED.spacedKey} --port 8000" >&2`,
            `printf 'launching with --api-key\\t%s\\n' "${PLANTED.tabKey}" >&2`,
            `echo "DEPLOY_GATE_SSH_PASSPHRASE=${PLANTED.passphrase}" >&2`,
            "set -x",
            "",
          ].join("\n"),
        ),
      );
    });
  });
  afterAll(async () => {
    if (repo) {
      await removeDeployed(host, repo);
      repo.cleanup();
    }
    await host?.close();
  });

  it("run, verify, explain and logs (and preflight): zero hits in terminal, JSON, summary, annotations and progress", async (ctx) => {
    sandboxOrSkip(ctx);
    const ep = repo.vars.endpoint;
    const dump = join(repo.root, "boot.journal.json");
    const outputs: Record<string, string> = {};
    for (const [cmd, args] of COMMANDS) {
      if (cmd === "explain") {
        // the unit's whole journal (script output, set -x trace, engine lines) as a user would save it
        const j = await host.run(["journalctl", "-u", repo.service, "-o", "json", "--no-pager"], { timeoutMs: 60_000 });
        expect(leaks(j.stdout).length).toBeGreaterThan(0); // the secrets really are on the host
        writeFileSync(dump, j.stdout);
      }
      for (const mode of [
        ["--json"],
        ["--report", join(repo.root, `${cmd}.json`), "--summary", join(repo.root, `${cmd}.md`)],
      ]) {
        if ((cmd === "explain" || cmd === "logs") && mode[0] !== "--json") mode.splice(0); // they write no report files
        let out = "";
        let err = "";
        const code = await main([cmd, ...args(ep, dump), ...mode], {
          out: (x) => (out += x),
          err: (x) => (err += x),
          isTTY: true,
          env: {},
          cwd: repo.root,
        });
        expect(code, `${cmd} ${mode.join(" ")}: ${err}`).not.toBe(2);
        let files = "";
        if (mode[0] === "--report") {
          const json = readFileSync(mode[1]!, "utf8");
          const a = annotationsOf(JSON.parse(json) as Report)
            .map((x) => `${x.title} ${x.file}\n${x.message}`)
            .join("\n");
          files = `${json}\n${readFileSync(mode[3]!, "utf8")}\n${a}`;
        }
        outputs[`${cmd} ${mode[0] ?? "terminal"}`] = `${out}\n${err}\n${files}`;
      }
    }
    // the run really deployed, and verify.env really looked at the planted knobs
    expect(outputs["run --json"]).toMatch(/"check": "deploy.ready",\s*"status": "pass"/);
    expect(outputs["verify --json"]).toMatch(/VLLM_S3_ACCESS=\*\*\*/);
    for (const [what, text] of Object.entries(outputs)) expect(leaks(text), what).toEqual([]);
  }, 600_000);
});
