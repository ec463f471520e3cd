// Kamal-style hooks through main(): pre-deploy runs on the runner before any host is touched, and a failing
// one stops the deploy; post-deploy runs after it with the verdict. Real scripts, a real git repository,
// and a host whose port refuses (nothing is deployed in these tests).
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { closedPort } from "../helpers/closed-port.js";
import { tempRepo, type TempRepo } from "../helpers/repo.js";

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.cleanup();
  repo = null;
});

async function setup(pre: string, post: string): Promise<TempRepo> {
  const r = tempRepo("dg-hooks-");
  const port = await closedPort();
  r.commit("repo", {
    "scripts/serve.sh": "#!/bin/bash\nexec vllm serve /m --port 8000 --served-model-name m\n",
    "hooks/pre.sh": pre,
    "hooks/post.sh": post,
    "deploy-gate.yml": `version: 1
endpoints:
  a:
    script: scripts/serve.sh
    service: a.service
    host: { address: 127.0.0.1, port: ${port}, user: u, hostKey: "SHA256:${"A".repeat(43)}" }
    install: [{ from: scripts/serve.sh, to: /opt/serve.sh }]
    url: http://127.0.0.1:8000
    model: m
    hooks: { pre-deploy: hooks/pre.sh, post-deploy: hooks/post.sh }
`,
  });
  for (const f of ["hooks/pre.sh", "hooks/post.sh"]) chmodSync(join(r.dir, f), 0o755);
  r.commit("executable hooks");
  return r;
}

async function run(cwd: string, ...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env: {}, cwd });
  return { code, out, err, report: argv.includes("--json") ? JSON.parse(out) : null };
}

const RECORD = (name: string) => `#!/bin/sh\nenv | grep '^DEPLOY_GATE_' | sort > "$(dirname "$0")/../${name}.env"\n`;

describe("hooks", () => {
  it("pre-deploy failing stops the deploy before any host is touched, with its output", async () => {
    repo = await setup("#!/bin/sh\necho 'freeze window: no deploys on Friday' >&2\nexit 3\n", RECORD("post"));
    const r = await run(repo.dir, "run", "--json");
    expect(r.code).toBe(1);
    const checks = r.report.findings.map((f: { check: string; status: string }) => `${f.check}:${f.status}`);
    expect(checks).toContain("deploy.hooks:fail");
    expect(checks.some((c: string) => c.startsWith("deploy.connect"))).toBe(false);
    const hook = r.report.findings.find((f: { check: string }) => f.check === "deploy.hooks");
    expect(hook.summary).toMatch(/pre-deploy hook hooks\/pre\.sh exited 3: deploy not attempted/);
    expect(hook.evidence.join("\n")).toContain("freeze window: no deploys on Friday");
  });

  it("both run on the runner with the endpoint, ref, commit and (post) the verdict in their environment", async () => {
    repo = await setup(RECORD("pre"), RECORD("post"));
    const sha = repo.git("rev-parse", "HEAD").trim();
    const r = await run(repo.dir, "run", "--json");
    const pre = readFileSync(join(repo.dir, "pre.env"), "utf8");
    const post = readFileSync(join(repo.dir, "post.env"), "utf8");
    expect(pre).toContain("DEPLOY_GATE_ENDPOINT=a\n");
    expect(pre).toContain(`DEPLOY_GATE_SHA=${sha}\n`);
    expect(pre).toMatch(/DEPLOY_GATE_REF=main\n/);
    expect(pre).not.toContain("DEPLOY_GATE_VERDICT");
    // the host refused the connection: the deploy failed, and post-deploy hears it
    expect(r.report.findings.some((f: { check: string; status: string }) => f.check === "deploy.connect")).toBe(true);
    expect(post).toContain("DEPLOY_GATE_VERDICT=fail\n");
    expect(post).toContain("DEPLOY_GATE_COMMAND=run\n");
  });
});
