// Install files travel as bytes from git to the host: a binary file keeps its bytes and its sha256,
// and modes with special bits compare as numbers (04755 in the config is the host's 4755).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readInstallFiles } from "../../../src/stages/deploy/install.js";
import { planInstall } from "../../../src/stages/deploy/install-plan.js";
import { GitReader } from "../../../src/ports/git/batched.js";
import { Git } from "../../../src/ports/git/git.js";
import type { StageContext } from "../../../src/stages/context.js";
import { tempRepo } from "../../helpers/repo.js";
import { normMode } from "../../../src/domain/host-output.js";

const repo = tempRepo("dg-bytes-");
afterAll(() => repo.cleanup());

describe("install files are bytes end to end", () => {
  it("a binary file read from git keeps every byte, and its recorded sha256 is the file's", async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7 + 3) % 256));
    repo.write("deploy/blob.bin", "");
    writeFileSync(join(repo.dir, "deploy/blob.bin"), bytes);
    const sha = repo.commit("binary");
    const ctx = {
      endpoint: { install: [{ from: "deploy/blob.bin", to: "/opt/x/blob.bin", mode: "0644" }] },
      repoPath: (p: string) => p,
      reader: new GitReader(new Git(repo.dir)),
      sha,
      ref: "main",
      configFile: "deploy-gate.yml",
    } as unknown as StageContext;
    const [f] = await readInstallFiles(ctx);
    expect(Buffer.compare(Buffer.from(f!.content), readFileSync(join(repo.dir, "deploy/blob.bin")))).toBe(0);
    expect(f!.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("modes with special bits compare as numbers", () => {
    expect(normMode("04755")).toBe("4755");
    expect(normMode("755")).toBe("0755");
    expect(normMode("0644")).toBe("0644");
    const f = { from: "a", to: "/usr/local/bin/x", mode: "04755", content: Buffer.from("x"), sha256: "a".repeat(64) };
    expect(planInstall([f], new Map([["/usr/local/bin/x", { sha256: "a".repeat(64), mode: "4755" }]]))[0]!.change).toBe(
      "same",
    );
    expect(planInstall([f], new Map([["/usr/local/bin/x", { sha256: "a".repeat(64), mode: "0755" }]]))[0]!.change).toBe(
      "mode",
    );
  });
});
