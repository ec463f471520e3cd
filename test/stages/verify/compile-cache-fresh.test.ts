// verify.compile-cache after a cache mount was just added: the earlier boots compiled cold because there
// was no cache, so this boot's cold compile loses nothing. Facts read the mount's oldest file on the host;
// a mount whose every file post-dates this container's creation was filled by this boot.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBootPlan } from "../../../src/stages/verify/plan.js";
import { cacheMountSource, checkCompileCache } from "../../../src/stages/verify/compile-cache.js";
import { buildFactsScript } from "../../../src/stages/verify/facts-script.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { parseFacts } from "../../../src/stages/verify/facts-parse.js";

const cold = readBootPlan([
  "(EngineCore_DP0 pid=75) INFO 10-05 10:01:02 [backends.py:215] Compiling a graph for compile range (1, 8192) takes 173.04 s",
  "(EngineCore_DP0 pid=75) INFO 10-05 10:01:09 [monitor.py:34] torch.compile took 181.20 s in total",
]);
const script = parseServeScript(
  "#!/bin/bash\nmkdir -p /var/cache/vllm\npodman run -d --name c -v /var/cache/vllm:/root/.cache/vllm img /models --port 7770\n",
);
const CREATED = 1_800_000_000_000;
const input = (cacheOldestMs: number | null | undefined) => ({
  ...cold,
  earlierBoots: 6,
  script,
  scriptPath: "s.sh",
  env: null,
  cacheOldestMs,
  createdMs: CREATED,
});

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe("verify.compile-cache with a cache mount that was just added", () => {
  it("names the host directory mounted over the cache root", () => {
    expect(cacheMountSource(script.engine!.podmanRun!)).toBe("/var/cache/vllm");
    expect(
      cacheMountSource(
        parseServeScript("#!/bin/bash\npodman run -v vcache:/root/.cache img /m --port 1\n").engine!.podmanRun!,
      ),
    ).toBeNull();
  });
  it("every file in the mount is this boot's: pass, the next boot should be warm", () => {
    const f = checkCompileCache(input(CREATED + 4000));
    expect(f.status).toBe("pass");
    expect(f.summary).toMatch(/first boot to fill the cache mount \/var\/cache\/vllm:\/root\/\.cache\/vllm/);
  });
  it("the mount held files from an earlier boot and this one still compiled: the warning stays", () => {
    expect(checkCompileCache(input(CREATED - 3_600_000)).status).toBe("warn");
    expect(checkCompileCache(input(undefined)).status).toBe("warn");
    // still empty after a cold compile: the cache went somewhere else
    expect(checkCompileCache(input(null)).status).toBe("warn");
  });
  it("the facts command reads the oldest file's time, and an empty directory as none", () => {
    const home = mkdtempSync(join(tmpdir(), "dg-cacheage-"));
    dirs.push(home);
    const bin = join(home, "bin");
    const cache = join(home, "cache");
    mkdirSync(bin);
    mkdirSync(join(cache, "torch_compile_cache"), { recursive: true });
    writeFileSync(join(bin, "podman"), "#!/bin/sh\nexit 1\n");
    chmodSync(join(bin, "podman"), 0o755);
    const facts = () => {
      const { script: sh, marker } = buildFactsScript({
        endpoint: "e",
        service: null,
        container: "ctr",
        cacheDir: cache,
      });
      return parseFacts(
        execFileSync("sh", ["-c", sh], { cwd: home, env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: "utf8" }),
        marker,
      );
    };
    expect(facts().cacheOldestMs).toBeNull();
    writeFileSync(join(cache, "torch_compile_cache", "a.py"), "x");
    writeFileSync(join(cache, "b"), "y");
    utimesSync(join(cache, "b"), 1_700_000_000, 1_700_000_000);
    expect(facts().cacheOldestMs).toBe(1_700_000_000_000);
    expect(parseFacts("", "m").cacheOldestMs).toBeUndefined();
  });
});
