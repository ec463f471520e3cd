import { describe, expect, it } from "vitest";
import { checkReplicas, type ReplicaFacts } from "../../../src/stages/verify/replicas.js";

const ARGV = ["/models/qwen", "--port", "7770", "--max-model-len", "8192"];
const r = (host: string, over: Partial<ReplicaFacts> = {}): ReplicaFacts => ({
  host,
  sha: "a".repeat(40),
  argv: ARGV,
  kvTokens: 100_000,
  ...over,
});

describe("verify.replicas", () => {
  it("passes when every replica runs the same ref, argv and KV pool (within the tolerance)", () => {
    const f = checkReplicas([r("a"), r("b", { kvTokens: 101_000 }), r("c")], { expectedSha: null, kvTolerance: 0.02 });
    expect(f.status).toBe("pass");
    expect(f.summary).toMatch(/3 replicas agree/);
  });
  it("names a replica whose argv drifted, with the flags that differ", () => {
    const f = checkReplicas([r("a"), r("b", { argv: [...ARGV.slice(0, 4), "4096"] }), r("c")], {
      expectedSha: null,
      kvTolerance: 0.02,
    });
    expect(f.status).toBe("fail");
    expect(f.summary).toBe("1 of 3 replica(s) differ from the fleet: b (argv)");
    expect(f.evidence?.find((l) => l.startsWith("b:"))).toMatch(/argv: missing 8192; extra 4096/);
    expect(f.fix).toContain("--hosts b");
  });
  it("names the endpoint in the redeploy command, which a config with several endpoints needs", () => {
    const f = checkReplicas([r("a"), r("b", { argv: [...ARGV.slice(0, 4), "4096"] })], {
      expectedSha: null,
      kvTolerance: 0.02,
      endpoint: "chat",
    });
    expect(f.fix).toContain("deploy-gate run --endpoint chat --hosts b");
    // after `rollback`, `run` would put the failed change back: the redeploy is a rollback too
    const rb = checkReplicas([r("a"), r("b", { sha: "c".repeat(40) })], {
      expectedSha: "a".repeat(40),
      kvTolerance: 0.02,
      endpoint: "chat",
      redeploy: "rollback",
    });
    expect(rb.fix).toContain("deploy-gate rollback --endpoint chat --hosts b");
  });
  it("names a replica with another KV pool, and one running another ref than expected", () => {
    const f = checkReplicas([r("a"), r("b", { kvTokens: 80_000 }), r("c", { sha: "b".repeat(40) })], {
      expectedSha: "a".repeat(40),
      kvTolerance: 0.05,
    });
    expect(f.summary).toBe("2 of 3 replica(s) differ from the fleet: b (KV), c (ref)");
    expect(f.evidence?.join("\n")).toMatch(/b: .*KV pool 80,000 tokens vs the fleet's median 100,000 \(tolerance 5%\)/);
  });
  it("names an unreadable replica, and skips a run with one replica", () => {
    expect(
      checkReplicas([r("a"), r("b", { error: "timeout" })], { expectedSha: null, kvTolerance: 0.02 }).summary,
    ).toMatch(/b \(unreadable\)/);
    expect(checkReplicas([r("a")], { expectedSha: null, kvTolerance: 0.02 }).status).toBe("skip");
  });
  it("never holds an engine's API key: not in data, evidence or summary, even when the keys differ between hosts", () => {
    const withKey = (k: string) => [...ARGV, "--api-key", k, "--hf-token=hf_" + k];
    const keys = ["sk-live-AAAAAAAAAAAAAAAAAAAA", "sk-live-BBBBBBBBBBBBBBBBBBBB"];
    const f = checkReplicas(
      [r("a", { argv: withKey(keys[0]!) }), r("b", { argv: withKey(keys[0]!) }), r("c", { argv: withKey(keys[1]!) })],
      {
        expectedSha: null,
        kvTolerance: 0.02,
      },
    );
    const text = JSON.stringify(f);
    for (const k of keys) expect(text).not.toContain(k.slice(8));
    // the drift is still named, without its value
    expect(f.status).toBe("fail");
    expect(f.evidence?.find((l) => l.startsWith("c:"))).toMatch(/a secret flag's value differs \(not shown\)/);
    expect((f.data as { rows: ReplicaFacts[] }).rows[0]!.argv).toContain("***");
  });
});
