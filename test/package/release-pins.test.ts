// What a user copies pins this release: every `uses: deploy-gate/deploy-gate@` in the README, the docs and the
// example workflows names this version's tag, and package.json says what the tool is today.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/lib/version.js";

const root = join(import.meta.dirname, "..", "..");
const files = [
  "README.md",
  // every markdown file under docs/, its subfolders (docs/integrations) too
  ...readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(root, "examples/workflows")).map((f) => `examples/workflows/${f}`),
];

describe("release pins", () => {
  it(`every action reference names the v${VERSION} tag`, () => {
    const refs = files.flatMap((f) =>
      [...readFileSync(join(root, f), "utf8").matchAll(/uses: deploy-gate\/deploy-gate@(\S+)/g)].map(
        (m) => `${f}: ${m[1]}`,
      ),
    );
    expect(refs.length).toBeGreaterThan(3);
    expect(refs.filter((r) => !r.endsWith(`: v${VERSION}`))).toEqual([]);
  });
  it("RELEASING.md says how v" + VERSION + " and the moving major tag move", () => {
    const text = readFileSync(join(root, "RELEASING.md"), "utf8");
    expect(text).toContain(`v${VERSION}`);
    expect(text).toMatch(/git tag -f v0 /);
    expect(text).toMatch(/git push -f origin v0/);
  });
  it("package.json's description names the engines and runtimes the gate handles", () => {
    const d = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).description as string;
    for (const w of ["vLLM", "SGLang", "llama.cpp", "podman", "docker", "units"]) expect(d).toContain(w);
  });
});
