// A chart in a partial clone whose other objects are absent (a large file elsewhere left out, its promisor remote
// gone): `git archive` of the whole base tree fails, and preflight renders the chart from its own directory, so a
// flag its values dropped is still traced (round Z: clinical-ai-platform's committed virtualenv).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const TEMPLATE = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata: {name: engine}",
  "spec:",
  "  selector: {matchLabels: {app: engine}}",
  "  template:",
  "    metadata: {labels: {app: engine}}",
  "    spec:",
  "      containers:",
  "        - name: engine",
  "          image: vllm/vllm-openai:v0.11.0",
  "          args:",
  '            - "--model"',
  '            - "m"',
  "            {{- range .Values.extraArgs }}",
  "            - {{ . | quote }}",
  "            {{- end }}",
  "",
].join("\n");

describe("preflight in a partial clone", () => {
  it.runIf(hasTool("helm"))(
    "renders the base chart from its own directory when the whole tree cannot be archived",
    async () => {
      const src = tempRepo();
      repos.push(src);
      const base = src.commit("add", {
        "chart/Chart.yaml": "apiVersion: v2\nname: engine\nversion: 0.1.0\n",
        "chart/values.yaml": "extraArgs:\n  - --quantization\n  - awq_marlin\n",
        "chart/templates/deployment.yaml": TEMPLATE,
        "vendor/big.bin": "x".repeat(64 * 1024),
      });
      src.commit("roll back the quantized model", { "chart/values.yaml": "extraArgs: []\n" });
      src.git("config", "uploadpack.allowFilter", "true");
      const dir = mkdtempSync(join(tmpdir(), "dg-partial-"));
      dirs.push(dir);
      const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
      // (sparse: the checkout holds the chart alone, so the large blob is never fetched)
      execFileSync("git", ["clone", "-q", "--filter=blob:limit=16k", "--sparse", `file://${src.dir}`, dir], {
        stdio: "ignore",
      });
      git("sparse-checkout", "set", "chart");
      // the blob left out can no longer be fetched: archiving the whole base tree fails
      git("remote", "remove", "origin");
      expect(() => git("archive", "-o", join(dir, "..", "t.tar"), base)).toThrow();
      let out = "";
      await main(["preflight", "--json", "--base", base], {
        out: (s) => (out += s),
        err: () => {},
        isTTY: false,
        env: {},
        cwd: dir,
      });
      const r = JSON.parse(out) as Report;
      const drops = r.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
      expect(drops.map((f) => [f.data?.flag, f.data?.baseLine])).toEqual([["--quantization", 2]]);
    },
  );
});
