// The sandbox recipe's pure parts: mirror from apt sources, ldd parsing, hash stability, cgroup paths.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cgroupDirs, enterCgroupsScript } from "./cgroups.js";
import { debianMirror, lddPaths, recipe, recipeHash } from "./recipe.js";

describe("sandbox recipe", () => {
  it("reads the Debian mirror for the suite from deb822 and one-line sources, never a built-in host", () => {
    const deb822 =
      "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\nTypes: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n";
    expect(debianMirror(deb822, "bookworm")).toBe("http://mirror.example/debian");
    expect(debianMirror("deb [arch=amd64] http://m.example/deb bookworm main\n", "bookworm")).toBe(
      "http://m.example/deb",
    );
    expect(debianMirror("deb http://m.example/deb trixie main\n", "bookworm")).toBeNull();
  });

  it("lists every library the real ldd names for node, and no vDSO", () => {
    const out = execFileSync("ldd", [process.execPath], { encoding: "utf8" });
    const libs = lddPaths(out);
    expect(libs.length).toBeGreaterThan(2);
    expect(libs.every((l) => l.startsWith("/") && existsSync(l))).toBe(true);
    expect(libs.some((l) => /ld-linux/.test(l))).toBe(true);
    expect(libs.some((l) => /vdso/.test(l))).toBe(false);
  });

  it("keys the cache on every input: suite, files and the node binary", () => {
    const base = recipeHash(recipe("bookworm", "v20.0.0"));
    expect(recipeHash(recipe("bookworm", "v20.0.0"))).toBe(base);
    expect(recipeHash(recipe("trixie", "v20.0.0"))).not.toBe(base);
    expect(recipeHash(recipe("bookworm", "v22.0.0"))).not.toBe(base);
    const changed = recipe("bookworm", "v20.0.0");
    changed.files["etc/hostname"] = [0o644, "other\n"];
    expect(recipeHash(changed)).not.toBe(base);
  });

  it("moves the launcher into its own cgroup under each named hierarchy", () => {
    const dirs = cgroupDirs("/nonexistent-cgroup-root");
    expect(dirs).toEqual(["/nonexistent-cgroup-root/hostlab-dgsandbox"]);
    const script = enterCgroupsScript(["/a/hostlab-x", "/b/hostlab-x"]);
    expect(script).toBe(
      "mkdir -p '/a/hostlab-x' && echo $$ > '/a/hostlab-x/cgroup.procs' && mkdir -p '/b/hostlab-x' && echo $$ > '/b/hostlab-x/cgroup.procs'",
    );
  });
});
