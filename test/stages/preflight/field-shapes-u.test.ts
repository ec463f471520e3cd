// preflight through the CLI on shapes held-out rounds U and V found, each written here in our own words: an API key a
// compose command falls back to (`--api-key ${KEY:-local-vllm}`) is a literal in argv, unless the file makes the
// variable required (`${KEY:?...}`, compose stops when it is unset); a placeholder led by `dummy-`/`your-` is none.
import { afterEach, describe, expect, it } from "vitest";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import type { TempRepo } from "../../helpers/repo.js";
import { preflightReport } from "../../helpers/preflight-report.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const secrets = (r: Report) =>
  r.findings
    .filter((f: Finding) => f.data?.rule === "secret-in-argv" && f.status !== "pass")
    .map((f) => [f.file, f.line, f.summary]);

const compose = (key: string, env = "") => `services:
  llm:
    image: vllm/vllm-openai:v0.11.0
    ipc: host
    environment:
      - HF_TOKEN=${env || "$HF_TOKEN"}
    command:
      - --model
      - m
      - --api-key
      - ${key}
`;

describe("secret-in-argv on a compose command's fallback key", () => {
  it("reports `${KEY:-literal}` at the flag's line, naming the default and never printing it", async () => {
    const r = await preflightReport({ "compose.yaml": compose("${VLLM_API_KEY:-local-vllm}") }, repos);
    const hits = secrets(r);
    expect(hits.map(([f, l]) => [f, l])).toEqual([["compose.yaml", 10]]);
    expect(String(hits[0]![2])).toMatch(/^the default of --api-key is written literally/);
    expect(JSON.stringify(r)).not.toContain("local-vllm");
  });

  it("is silent when the file requires the variable elsewhere, and on a placeholder or an empty default", async () => {
    const required = compose("${VLLM_API_KEY:-local-vllm}").replace(
      "      - HF_TOKEN=$HF_TOKEN\n",
      "      - HF_TOKEN=$HF_TOKEN\n      - VLLM_API_KEY=${VLLM_API_KEY:?set it in .env}\n",
    );
    expect(secrets(await preflightReport({ "compose.yaml": required }, repos))).toEqual([]);
    expect(secrets(await preflightReport({ "compose.yaml": compose("${VLLM_API_KEY:-EMPTY}") }, repos))).toEqual([]);
    expect(secrets(await preflightReport({ "compose.yaml": compose("${VLLM_API_KEY:-}") }, repos))).toEqual([]);
  });

  it("takes `dummy-token` in the environment for a placeholder, a real-looking value for a secret", async () => {
    const placeholder = compose("$VLLM_API_KEY", "dummy-token");
    expect(secrets(await preflightReport({ "compose.yaml": placeholder }, repos))).toEqual([]);
    const real = compose("$VLLM_API_KEY", "hf_" + "Qz8Lp2Wv7Xr4Tn6Ky1Mb3Hc9Jd5Fg0S");
    expect(secrets(await preflightReport({ "compose.yaml": real }, repos)).map(([f, l]) => [f, l])).toEqual([
      ["compose.yaml", 6],
    ]);
  });

  it("takes a sentence telling the reader what to write for a placeholder, a passphrase for a secret", async () => {
    const told = compose("$VLLM_API_KEY", "Insert your token here");
    expect(secrets(await preflightReport({ "compose.yaml": told }, repos))).toEqual([]);
    const phrase = compose("$VLLM_API_KEY", "plum orbit kettle 42 lantern");
    expect(secrets(await preflightReport({ "compose.yaml": phrase }, repos)).map(([f, l]) => [f, l])).toEqual([
      ["compose.yaml", 6],
    ]);
  });
});
