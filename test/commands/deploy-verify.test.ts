// deployRef through the real CLI in a real git repository: which ref `rollback` deploys. The host is a
// loopback port nothing listens on, so the run stops at deploy.connect, after the ref was chosen.
import { afterAll, describe, expect, it } from "vitest";
import { closedPort } from "../helpers/closed-port.js";
import { main } from "../../src/cli/main.js";
import type { Report } from "../../src/domain/report/finding.js";
import { tempRepo } from "../helpers/repo.js";

const repo = tempRepo("dg-stages-");
afterAll(() => repo.cleanup());

async function rollback(...argv: string[]): Promise<{ code: number; report: Report | null; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["rollback", "--json", ...argv], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd: repo.dir,
  });
  return { code, report: out ? (JSON.parse(out) as Report) : null, err };
}

describe("rollback", () => {
  it("deploys rollback.ref, or the version --ref names instead of ignoring it", async () => {
    const port = await closedPort();
    const cfg = (rb: string) =>
      `version: 1\nendpoints:\n  chat:\n    script: serve.sh\n    service: chat.service\n    container: chat\n    install: [{ from: serve.sh, to: /opt/chat.sh, mode: "0755" }]\n    url: http://127.0.0.1:9\n    model: qwen\n    host: { address: 127.0.0.1, port: ${port}, user: deploy, hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8" }\n${rb}`;
    repo.commit("v1", {
      "serve.sh": "#!/bin/bash\nexec vllm serve /m --port 7770\n",
      "deploy-gate.yml": cfg("    rollback: { ref: good }\n"),
    });
    repo.git("tag", "good");
    const v2 = repo.commit("v2", { "serve.sh": "#!/bin/bash\nexec vllm serve /m --port 7771\n" });
    repo.commit("v3", { "serve.sh": "#!/bin/bash\nexec vllm serve /m --port 7772\n" });
    expect((await rollback()).report?.ref.name).toBe("good");
    const to = await rollback("--ref", "HEAD~1");
    expect(to.report?.ref).toEqual({ name: "HEAD~1", sha: v2 });
    // without rollback: in the config, --ref is enough; with neither, the message names both
    repo.commit("no rollback", { "deploy-gate.yml": cfg("") });
    expect((await rollback("--ref", "good")).report?.ref.name).toBe("good");
    const none = await rollback();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(
      /rollback is not configured: add rollback: \{ ref: <tag> \} to roll back, or pass --ref REF/,
    );
  });
});

describe("verify without --ref", () => {
  it("an unreachable host: the report says the deployed ref is unknown and why (it said `?`)", async () => {
    const port = await closedPort();
    repo.commit("verify cfg", {
      "deploy-gate.yml": `version: 1\nendpoints:\n  chat:\n    script: serve.sh\n    service: chat.service\n    container: chat\n    url: http://127.0.0.1:9\n    model: qwen\n    host: { address: 127.0.0.1, port: ${port}, user: deploy, hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8" }\n`,
    });
    let out = "";
    await main(["verify", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: repo.dir });
    const report = JSON.parse(out) as Report;
    expect(report.ref.name).toBe("(host unreachable: deployed ref unknown)");
    expect(report.findings.some((f) => f.check === "deploy.connect" && f.status === "fail")).toBe(true);
  });
});
