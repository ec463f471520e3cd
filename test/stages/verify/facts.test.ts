// The facts command run by real sh with stand-ins for podman, systemctl and journalctl on PATH (the only
// commands a developer machine lacks), then parsed: proves the shell side and the parser agree.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildFactsScript } from "../../../src/stages/verify/facts-script.js";
import { parseFacts, parseTime } from "../../../src/stages/verify/facts-parse.js";

const ID = "1d991a103a04".padEnd(64, "a");
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function inspectJson(pid: number, env: string[]): string {
  return JSON.stringify(
    [
      {
        Id: ID,
        Created: "2026-11-29T22:35:43.958625546Z",
        Name: "ctr",
        State: {
          Status: "running",
          Running: true,
          Pid: pid,
          ConmonPid: 333,
          StartedAt: "2026-11-29T22:35:44.287759075Z",
        },
        Config: { Env: env },
      },
    ],
    null,
    5,
  );
}

/** A home with a state record and a bin dir of stand-ins; the container's PID 1 is this test's own child. */
function runFacts(opts: {
  inspect: string | null;
  restarts: string;
  journal: string;
  state?: string;
  pid?: number;
  installed?: (home: string) => string[];
}) {
  const home = mkdtempSync(join(tmpdir(), "dg-facts-"));
  dirs.push(home);
  const bin = join(home, "bin");
  mkdirSync(bin);
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  writeFileSync(join(home, "inspect.json"), opts.inspect ?? "");
  writeFileSync(join(home, "journal.txt"), opts.journal);
  stub(
    "podman",
    opts.inspect === null
      ? `[ "$1" = inspect ] && { echo 'Error: no such object: "ctr"' >&2; exit 125; }; exit 125`
      : `[ "$1" = inspect ] && { cat ${home}/inspect.json; exit 0; }; [ "$1" = exec ] && { printf 'vllm\\0serve\\0/models\\0--port\\0 7770\\0'; exit 0; }; exit 1`,
  );
  // Like every other systemctl call, the name comes after "--" (a name can never read as an option).
  stub(
    "systemctl",
    `[ "$5" = -- ] && [ "$6" = frank.service ] || { echo "unexpected argv: $*" >&2; exit 2; }; case "$3" in NRestarts) echo ${opts.restarts};; ActiveState) echo active;; esac`,
  );
  stub("journalctl", `case "$1" in CONTAINER_ID_FULL=${ID}) cat ${home}/journal.txt;; *) exit 1;; esac`);
  if (opts.state) {
    mkdirSync(join(home, ".deploy-gate/state"), { recursive: true });
    writeFileSync(join(home, ".deploy-gate/state/archon.json"), opts.state);
  }
  const { script, marker } = buildFactsScript({
    endpoint: "archon",
    service: "frank.service",
    container: "ctr",
    installed: opts.installed?.(home),
  });
  const out = execFileSync("sh", ["-c", script], {
    cwd: home,
    env: { PATH: `${bin}:/usr/bin:/bin` },
    encoding: "utf8",
  });
  return parseFacts(out, marker);
}

const JOURNAL = [
  "(EngineCore_DP0 pid=75) INFO 11-29 22:35:45 [kv_cache_utils.py:1087] GPU KV cache size: 131,072 tokens, Maximum concurrency for 8,192 tokens per request: 16.00x",
  "",
  '(APIServer pid=1) INFO 11-29 22:35:46 [api_server.py:1] 10.0.0.1:5000 - "GET /health HTTP/1.1" 200 OK',
  "(APIServer pid=1) INFO 11-29 22:35:44 [utils.py:233] non-default args: {'model_tag': '/models', 'max_model_len': 8192}",
  "(EngineCore pid=7) INFO 11-29 22:35:40 [planner.py:88] expert offload plan: budget (total x util)   59.73 GiB",
  "(APIServer pid=1) INFO 11-29 22:36:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.10, Accepted: 11 tokens, Drafted: 20 tokens",
  "(APIServer pid=1) INFO 11-29 22:36:10 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.40, Accepted: 14 tokens, Drafted: 20 tokens",
].join("\n");

describe("host facts", () => {
  it("reads restarts, the container, PID 1's argv and environ from /proc, the filtered journal and the state record", () => {
    const f = runFacts({
      inspect: inspectJson(process.pid, ["FROM_INSPECT=1"]),
      restarts: "3",
      journal: JOURNAL,
      state: JSON.stringify({
        schema: 1,
        endpoint: "archon",
        ref: "v1",
        sha: "abc",
        deployedAt: 1,
        by: "ci",
        files: [],
        previous: null,
      }),
    });
    expect(f.nRestarts).toBe(3);
    expect(f.activeState).toBe("active");
    expect(f.container).toMatchObject({
      id: ID,
      running: true,
      pid: process.pid,
      createdMs: Date.parse("2026-11-29T22:35:43.958Z"),
    });
    // PID 1 here is this test process, read through the host's /proc: argv and environ are ours
    expect(f.argv).toEqual(readFileSync(`/proc/${process.pid}/cmdline`, "utf8").split("\0").slice(0, -1));
    expect(f.env!.get("PATH")).toBe(process.env.PATH);
    expect(f.env!.has("FROM_INSPECT")).toBe(false);
    // plan lines kept, access logs dropped, only the newest spec-decode line
    const lines = JOURNAL.split("\n");
    expect(f.journal).toEqual([lines[0], lines[3], lines[4], lines[6]]);
    expect(f.state).toMatchObject({ ref: "v1", sha: "abc" });
    expect(f.hostNowMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it("falls back to podman exec when /proc/<pid> is not readable, and keeps NUL-separated words whole", () => {
    const f = runFacts({ inspect: inspectJson(0, ["A=1", "B=x=y"]), restarts: "0", journal: "" });
    expect(f.argv).toEqual(["vllm", "serve", "/models", "--port", " 7770"]);
    // environ through podman exec is the same stub; the inspect env is the fallback when environ is empty
    expect(f.nRestarts).toBe(0);
    expect(f.state).toBeNull();
  });

  it("a missing container: the inspect error, no argv, no journal", () => {
    const f = runFacts({ inspect: null, restarts: "0", journal: JOURNAL });
    expect(f.container).toBeNull();
    expect(f.inspectError).toMatch(/no such object/);
    expect(f.argv).toBeNull();
    expect(f.journal).toEqual([]);
  });

  it("parses podman's nanosecond times and rejects the zero time", () => {
    expect(parseTime("2026-11-29T22:35:43.958625546+01:00")).toBe(Date.parse("2026-11-29T21:35:43.958Z"));
    expect(parseTime("0001-01-01T00:00:00Z")).toBeNull();
    expect(parseTime("garbage")).toBeNull();
  });
});

describe("installed files", () => {
  it("reads the sha256 of each installed file as it is now, by the real sha256sum; a missing one is absent", () => {
    let paths: string[] = [];
    const f = runFacts({
      inspect: null,
      restarts: "0",
      journal: "",
      installed: (home) => {
        writeFileSync(join(home, "serve it.sh"), "#!/bin/bash\nexec vllm serve /m\n");
        return (paths = [join(home, "serve it.sh"), join(home, "gone.service")]);
      },
    });
    expect(f.installed.get(paths[0]!)).toBe(
      createHash("sha256").update("#!/bin/bash\nexec vllm serve /m\n").digest("hex"),
    );
    expect(f.installed.has(paths[1]!)).toBe(false);
  });
});
