// The facts command's new sections (smi tool, user plan lines, earlier compiling boots) under real sh with
// stand-ins for the host tools, parsed by parseFacts.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildFactsScript } from "../../../src/stages/verify/facts-script.js";
import { parseFacts } from "../../../src/stages/verify/facts-parse.js";

const ID = "ab".repeat(32);
const OLD = "cd".repeat(32);
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function run(tools: Record<string, string>, planPatterns?: string[]) {
  const home = mkdtempSync(join(tmpdir(), "dg-facts7-"));
  dirs.push(home);
  const bin = join(home, "bin");
  mkdirSync(bin);
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  writeFileSync(
    join(home, "inspect.json"),
    JSON.stringify([{ Id: ID, Name: "ctr", State: { Running: true, Pid: 0 }, Config: { Env: [] } }], null, 2),
  );
  writeFileSync(
    join(home, "journal.txt"),
    [
      "(EngineCore pid=7) INFO 10-05 11:02:01 [planner.py:88] expert cache space   21.40 GiB   1,204 slots",
      "(EngineCore pid=7) INFO 10-05 11:02:02 [planner.py:91] spec reservation MTP4 729,545 tokens",
      '(APIServer pid=1) INFO 10-05 11:02:09 [api_server.py:1] "GET /health HTTP/1.1" 200 OK',
    ].join("\n"),
  );
  const json = (id: string, msg: string) => JSON.stringify({ CONTAINER_ID_FULL: id, MESSAGE: msg });
  writeFileSync(
    join(home, "byname.json"),
    [
      json(OLD, "Compiling a graph for compile range (1, 8192) takes 37.99 s"),
      json(OLD, "GET /health"),
      json(ID, "Compiling a graph for compile range (1, 8192) takes 36.10 s"),
    ].join("\n"),
  );
  stub("podman", `[ "$1" = inspect ] && { cat ${home}/inspect.json; exit 0; }; exit 1`);
  stub(
    "journalctl",
    `case "$1" in CONTAINER_ID_FULL=${ID}) cat ${home}/journal.txt;; CONTAINER_NAME=ctr) cat ${home}/byname.json;; *) exit 1;; esac`,
  );
  for (const [k, v] of Object.entries(tools)) stub(k, v);
  const { script, marker } = buildFactsScript({
    endpoint: "e",
    service: null,
    container: "ctr",
    ...(planPatterns ? { planPatterns } : {}),
  });
  const out = execFileSync("sh", ["-c", script], {
    cwd: home,
    env: { PATH: `${bin}:/usr/bin:/bin` },
    encoding: "utf8",
  });
  return parseFacts(out, marker);
}

describe("facts for the seed-complete checks", () => {
  it("runs nvidia-smi's query when it exists, and counts earlier boots that compiled", () => {
    const f = run({
      "nvidia-smi": `[ "$1" = "--query-gpu=index,name,memory.used,memory.total" ] && echo "0, NVIDIA L4, 21000, 23034"`,
    });
    expect(f.gpu).toEqual({ tool: "nvidia-smi", output: "0, NVIDIA L4, 21000, 23034\n" });
    expect(f.earlierCompileBoots).toBe(1);
    expect(f.planLines).toEqual([]);
  });

  it("falls back to rocm-smi, and says so when neither exists", () => {
    expect(
      run({ "rocm-smi": `[ "$1 $2" = "--showmeminfo vram" ] && printf 'GPU[0]\\t\\t: VRAM Total Memory (B): 100\\n'` })
        .gpu,
    ).toEqual({ tool: "rocm-smi", output: "GPU[0]\t\t: VRAM Total Memory (B): 100\n" });
    expect(run({}).gpu.tool).toBeNull();
  });

  it("returns this instance's lines for the user's plan patterns (PCRE on the host)", () => {
    const f = run({}, ["expert cache space +[0-9.]+ GiB +([0-9,]+) slots", "MTP\\d ([\\d,]+) tokens"]);
    expect(f.planLines).toHaveLength(2);
    expect(f.planLines[0]).toMatch(/1,204 slots/);
    expect(f.planLines[1]).toMatch(/729,545 tokens/);
  });
});
