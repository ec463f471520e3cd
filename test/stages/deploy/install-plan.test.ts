// What install would change, against real sha256sum/stat output of real files; the state record chain.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  isUnitFile,
  nextStateRecord,
  parseStateRecord,
  planInstall,
  sha256,
  type InstallFile,
} from "../../../src/stages/deploy/install-plan.js";
import { parseHostCopies } from "../../../src/domain/host-output.js";

const file = (to: string, content: string, mode = "0644"): InstallFile => ({
  from: `repo${to}`,
  to,
  mode,
  content: Buffer.from(content),
  sha256: sha256(content),
});

describe("planInstall", () => {
  it("compares content and mode with the host's copies read by sha256sum and stat", () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-install-"));
    const same = join(dir, "same.sh"),
      edited = join(dir, "edited.sh"),
      mode = join(dir, "mode.sh"),
      missing = join(dir, "missing.service");
    writeFileSync(same, "echo same\n");
    chmodSync(same, 0o755);
    writeFileSync(edited, "echo old\n");
    chmodSync(edited, 0o755);
    writeFileSync(mode, "echo mode\n");
    chmodSync(mode, 0o644);
    const paths = [same, edited, mode, missing];
    const run = (cmd: string) => {
      try {
        return execFileSync("sh", ["-c", cmd], { encoding: "utf8" });
      } catch (e) {
        return (e as { stdout: string }).stdout;
      }
    };
    const sums = run(`sha256sum -- ${paths.join(" ")} 2>/dev/null`);
    const stats = run(`stat -c '%a %n' -- ${paths.join(" ")} 2>/dev/null`);
    const planned = planInstall(
      [
        file(same, "echo same\n", "0755"),
        file(edited, "echo new\n", "755"),
        file(mode, "echo mode\n", "0755"),
        file(missing, "[Unit]\n"),
      ],
      parseHostCopies(sums, stats),
    );
    expect(planned.map((p) => p.change)).toEqual(["same", "content", "mode", "new"]);
  });

  it("knows unit files", () => {
    expect(isUnitFile("/etc/systemd/system/frank.service")).toBe(true);
    expect(isUnitFile("/etc/containers/systemd/frank.container")).toBe(true);
    expect(isUnitFile("/home/dank/serve.sh")).toBe(false);
  });
});

describe("state record", () => {
  const base = { endpoint: "archon", by: "me@laptop", files: [file("/x", "a")] };
  it("keeps the replaced deploy as previous, and keeps the older previous on a redeploy of the same commit", () => {
    const first = nextStateRecord(null, { ...base, ref: "v1", sha: "a".repeat(40), deployedAt: 100 });
    expect(first.previous).toBeNull();
    const second = nextStateRecord(first, { ...base, ref: "v2", sha: "b".repeat(40), deployedAt: 200 });
    expect(second.previous).toEqual({ ref: "v1", sha: "a".repeat(40), deployedAt: 100 });
    const again = nextStateRecord(second, { ...base, ref: "v2", sha: "b".repeat(40), deployedAt: 300 });
    expect(again.previous).toEqual(second.previous);
    expect(parseStateRecord(JSON.stringify(again))).toEqual(again);
    expect(parseStateRecord("not json")).toBeNull();
  });
});
