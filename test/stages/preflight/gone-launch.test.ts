// A launch that went away whole (commented out): the file is no target any more, yet its flags are reported
// dropped against the commit that retired it. Real git repositories, the CLI's preflight --json.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const SERVE = `#!/bin/bash
exec vllm serve Qwen/Qwen3-8B \\
  --port 8000 \\
  --reasoning-parser qwen3 \\
  --max-num-seqs 64
`;
const COMMENTED = SERVE.split("\n")
  .map((l, i) => (i > 0 && l ? `# ${l}` : l))
  .join("\n");
const OTHER = "#!/bin/bash\nexec vllm serve m --port 9000\n";

async function preflight(dir: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: dir,
  });
  return JSON.parse(out) as Report;
}
const gone = (r: Report) =>
  r.findings
    .filter((f) => f.check === "preflight.dropped-flags" && f.data?.launchGone)
    .map((f) => [f.file, f.data?.flag, f.status, f.data?.baseLine]);

describe("preflight.dropped-flags: a launch that went away whole", () => {
  it("reports every flag of the retired launch at its base line, a client flag failing, in the commit that retired it", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("serve", { "serve.sh": SERVE, "other.sh": OTHER });
    r.commit("retire the launch", { "serve.sh": COMMENTED });
    const report = await preflight(r.dir);
    expect(gone(report)).toEqual([
      ["serve.sh", "--port", "fail", 3],
      ["serve.sh", "--reasoning-parser", "fail", 4],
      ["serve.sh", "--max-num-seqs", "warn", 5],
    ]);
    expect(report.findings.find((f) => f.data?.launchGone)?.summary).toMatch(/starts no engine now/);
    // the quiet file is no discovered launch: nothing names it as an endpoint
    expect(report.findings.filter((f) => f.file === "serve.sh" && f.data?.endpoint !== undefined)).toEqual([]);
  });

  it("says nothing of a launch retired in an earlier commit, unless --base reaches back past it", async () => {
    const r = tempRepo();
    repos.push(r);
    const first = r.commit("serve", { "serve.sh": SERVE, "other.sh": OTHER });
    r.commit("retire the launch", { "serve.sh": COMMENTED });
    r.commit("later work", { "other.sh": `${OTHER}# note\n` });
    expect(gone(await preflight(r.dir))).toEqual([]);
    expect(gone(await preflight(r.dir, "--base", first)).map((g) => g[1])).toEqual([
      "--port",
      "--reasoning-parser",
      "--max-num-seqs",
    ]);
  });

  it("a compose file whose engine services are all commented out: each service's flags at its own base line", async () => {
    const r = tempRepo();
    repos.push(r);
    const svc = (name: string, port: number) =>
      `  ${name}:\n    image: ghcr.io/ggml-org/llama.cpp:server\n    command:\n      - --model\n      - /m/${name}.gguf\n      - --port\n      - "${port}"\n`;
    const compose = `services:\n${svc("llm", 8080)}${svc("rerank", 8081)}  ui:\n    image: ghcr.io/open-webui/open-webui:main\n`;
    const retired = compose
      .split("\n")
      .map((l, i) => (i >= 1 && i <= 14 && l ? `#${l}` : l))
      .join("\n");
    r.commit("serve", { "compose.yaml": compose, "other.sh": OTHER });
    r.commit("disable the llama services", { "compose.yaml": retired });
    const report = await preflight(r.dir);
    const rows = report.findings
      .filter((f) => f.check === "preflight.dropped-flags" && f.data?.launchGone)
      .map((f) => [f.data?.part, f.data?.flag, f.data?.baseLine]);
    expect(rows).toEqual([
      ["llm", "--model", 5],
      ["llm", "--port", 7],
      ["rerank", "--model", 12],
      ["rerank", "--port", 14],
    ]);
  });
});
