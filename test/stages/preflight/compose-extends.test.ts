// compose's `extends:` read as compose runs it, shapes from held-out set M1 written in our own words: a
// compose.yaml whose only service extends an engine service of another file is a serving target, its flags are
// reported where that file writes them, and a flag dropped from the base file is traced for the extending one too.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { extendedFiles } from "../../../src/domain/launch/compose.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(files: Record<string, string>, ...changes: Record<string, string>[]): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  const base = r.commit("add", files);
  changes.forEach((c, i) => r.commit(`change ${i}`, c));
  let out = "";
  await main(["preflight", "--json", ...(changes.length ? ["--base", base] : [])], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: r.dir,
  });
  return JSON.parse(out) as Report;
}

const ENGINE = [
  "services:",
  "  vllm:",
  "    image: vllm/vllm-openai:v0.11.0",
  "    ipc: host",
  "    restart: on-failure",
  "    command:",
  "      - --model",
  "      - Qwen/Qwen3-8B",
  "      - --enable-auto-tool-choice",
  "      - --tool-call-parser",
  "      - hermes",
  "",
].join("\n");
const TOP = [
  "services:",
  "  vllm:",
  "    extends:",
  "      file: engine.compose.yaml",
  "      service: vllm",
  "    ports:",
  '      - "127.0.0.1:8000:8000"',
  "",
].join("\n");

const flagsOf = (text: string, extended: Map<string, string>) =>
  parseLaunchParts("compose", text, { extended }).map((p) => [
    p.name,
    p.script.engine?.kind ?? null,
    p.script.engine?.flags.map((f) => `${f.name}@${f.file ?? ""}:${f.line}`),
  ]);

describe("compose extends:", () => {
  it("takes the base service's image and command from the other file, each flag at its line there", () => {
    expect(flagsOf(TOP, new Map([["engine.compose.yaml", ENGINE]]))).toEqual([
      [
        "vllm",
        "vllm",
        [
          "--model@engine.compose.yaml:7",
          "--enable-auto-tool-choice@engine.compose.yaml:9",
          "--tool-call-parser@engine.compose.yaml:10",
        ],
      ],
    ]);
    // without the other file the service is what it says alone: no image, no engine
    expect(flagsOf(TOP, new Map())).toEqual([["vllm", null, undefined]]);
  });

  it("lays the extending service's own keys over the base's: its command replaces, its restart wins", () => {
    const text = [
      "x-base: &b",
      "  image: lmsysorg/sglang:v0.5.2",
      "services:",
      "  base:",
      "    image: lmsysorg/sglang:v0.5.2",
      "    restart: on-failure",
      "    command: python3 -m sglang.launch_server --model-path m --tp 2",
      "  big:",
      "    extends: base",
      "    restart: unless-stopped",
      "    command: python3 -m sglang.launch_server --model-path m --tp 4 --enable-metrics",
      "",
    ].join("\n");
    const parts = parseLaunchParts("compose", text);
    const big = parts.find((p) => p.name === "big")!;
    expect(big.script.engine?.kind).toBe("sglang");
    expect(big.script.engine?.flags.map((f) => `${f.name}=${f.value ?? ""}@${f.line}`)).toEqual([
      "--model-path=m@11",
      "--tp=4@11",
      "--enable-metrics=@11",
    ]);
    expect(big.script.podmanRuns[0]!.workload?.restart).toEqual({ value: "unless-stopped", line: 10 });
  });

  it("follows extends through two files and stops at a loop", () => {
    const mid = "services:\n  mid:\n    extends:\n      file: ../base/engine.yaml\n      service: vllm\n";
    const read = (p: string) => ({ "sub/mid.yaml": mid, "base/engine.yaml": ENGINE })[p] ?? null;
    const top = "services:\n  top:\n    extends:\n      file: sub/mid.yaml\n      service: mid\n";
    const extended = extendedFiles(top, read);
    expect([...extended.keys()]).toEqual(["sub/mid.yaml", "base/engine.yaml"]);
    expect(flagsOf(top, extended)[0]![2]).toEqual([
      "--model@base/engine.yaml:7",
      "--enable-auto-tool-choice@base/engine.yaml:9",
      "--tool-call-parser@base/engine.yaml:10",
    ]);
    const loop = "services:\n  a:\n    extends: b\n  b:\n    extends: a\n";
    expect(parseLaunchParts("compose", loop).map((p) => p.script.engine)).toEqual([null, null]);
  });

  it("preflight discovers the extending file and traces a flag dropped from the base file", async () => {
    const files = { "compose.yaml": TOP, "engine.compose.yaml": ENGINE };
    const first = await preflight(files);
    const traps = first.findings.filter((f) => f.check === "preflight.traps" && f.status !== "pass");
    // both files start the engine: each is checked; restart: on-failure is raised where each gets it
    expect(traps.map((f) => [f.data?.rule, f.file, f.line])).toEqual([
      ["restart-on-failure", "compose.yaml", 3],
      ["restart-on-failure", "engine.compose.yaml", 5],
    ]);
    const r = await preflight(files, {
      "engine.compose.yaml": ENGINE.replace("      - --enable-auto-tool-choice\n", ""),
    });
    const drops = r.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(drops.map((f) => [f.file, f.data?.flag, f.data?.baseLine]).sort()).toEqual([
      ["compose.yaml", "--enable-auto-tool-choice", 9],
      ["engine.compose.yaml", "--enable-auto-tool-choice", 9],
    ]);
  });
  it("a compose file in a directory: the base file by its repository path, in the evidence and the fix", async () => {
    const top = TOP.replace("file: engine.compose.yaml", "file: engine.yaml");
    const config =
      'version: 1\nendpoints:\n  llm:\n    script: deploy/compose.yaml\n    contracts:\n      flags: ["--tool-call-parser hermes"]\n';
    const r = await preflight(
      { "deploy/compose.yaml": top, "deploy/engine.yaml": ENGINE, "deploy-gate.yml": config },
      { "deploy/engine.yaml": ENGINE.replace("      - --enable-auto-tool-choice\n", "") },
    );
    const c = r.findings.find((f) => f.check === "preflight.contracts")!;
    expect([c.status, c.summary]).toEqual(["pass", "deploy/compose.yaml: 1 of 1 contract flags present"]);
    const d = r.findings.find((f) => f.check === "preflight.dropped-flags")!;
    expect([d.status, d.file, d.line]).toEqual(["fail", "deploy/compose.yaml", 3]);
    expect(d.evidence).toContainEqual(
      expect.stringMatching(/^[0-9a-f]{10}:deploy\/engine\.yaml:9: --enable-auto-tool-choice$/),
    );
    expect(d.fix).toMatch(/^restore `--enable-auto-tool-choice` in deploy\/engine\.yaml/);
  });
  it("a base whose command is a bash -c script: its flags (and a trap on them) are on the base file's lines", async () => {
    const engine = [
      "services:",
      "  vllm:",
      // (an image that may still run the V0 engine, whose swap space pins host memory)
      "    image: vllm/vllm-openai:v0.8.4",
      "    entrypoint: [bash, -euc]",
      "    command:",
      "      - |",
      "        exec vllm serve Qwen/Qwen3-8B \\",
      "          --swap-space 16 \\",
      "          --port 8000",
      "",
    ].join("\n");
    const extended = new Map([["engine.compose.yaml", engine]]);
    expect(flagsOf(TOP, extended)[0]![2]).toEqual([
      "--swap-space@engine.compose.yaml:8",
      "--port@engine.compose.yaml:9",
    ]);
    const r = await preflight({ "compose.yaml": TOP, "engine.compose.yaml": engine });
    const memlock = r.findings.filter((f) => f.data?.rule === "memlock" && f.status !== "pass");
    // both files run the same argv: one finding, at the line that writes the flag
    expect(memlock.map((f) => [f.file, f.line])).toEqual([["engine.compose.yaml", 8]]);
  });
});
