// A chart deployed by an Argo CD Application with value files of its own (round AB's jomcgi/homelab shape, in our own
// words): a flag deleted from the production value file is a dropped flag of that file, traced to its line there,
// though the chart's own render (its values.yaml alone) never held it. Real git, real helm.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const TEMPLATE = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata:",
  "  name: {{ .Release.Name }}-llama",
  "spec:",
  "  selector: {matchLabels: {app: llama}}",
  "  template:",
  "    metadata: {labels: {app: llama}}",
  "    spec:",
  "      containers:",
  "        - name: llama-server",
  "          image: ghcr.io/ggml-org/llama.cpp:server-cuda",
  "          args:",
  '            - "--model"',
  "            - {{ .Values.model | quote }}",
  '            - "--port"',
  '            - "8080"',
  "            {{- range .Values.extraArgs }}",
  "            - {{ . | quote }}",
  "            {{- end }}",
  "",
].join("\n");

const APP = [
  "apiVersion: argoproj.io/v1alpha1",
  "kind: Application",
  "metadata:",
  "  name: prod-llama",
  "spec:",
  "  source:",
  "    repoURL: https://example.invalid/team/homelab.git",
  "    path: charts/llama",
  "    helm:",
  "      valueFiles:",
  "        - values.yaml",
  "        - ../../overlays/prod/llama/values.yaml",
  "",
].join("\n");

const prodValues = (extra: string[]) =>
  ["model: /models/big.gguf", "extraArgs:", ...extra.map((a) => `  - "${a}"`), ""].join("\n");

async function preflight(r: TempRepo, args = ["--base", "HEAD~1"]): Promise<Finding[]> {
  let out = "";
  await main(["preflight", "--json", ...args], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: r.dir,
  });
  return (JSON.parse(out) as Report).findings.filter((f) => f.check === "preflight.dropped-flags");
}

function chartRepo(): TempRepo {
  const r = tempRepo();
  repos.push(r);
  r.commit("llama chart and its production Application", {
    "charts/llama/Chart.yaml": "apiVersion: v2\nname: llama\nversion: 0.1.0\n",
    "charts/llama/values.yaml": "model: /models/small.gguf\nextraArgs:\n  - --jinja\n",
    "charts/llama/templates/deployment.yaml": TEMPLATE,
    "overlays/prod/llama/application.yaml": APP,
    "overlays/prod/llama/values.yaml": prodValues(["--jinja", "--cache-reuse", "256", "--ctx-size", "32768"]),
  });
  return r;
}

describe("value files an Argo CD Application applies", () => {
  it.runIf(hasTool("helm"))("reports a flag deleted from the production value file at its line there", async () => {
    const r = chartRepo();
    r.commit("prod: switch model", {
      "overlays/prod/llama/values.yaml": prodValues(["--jinja", "--ctx-size", "32768"]),
    });
    const dropped = (await preflight(r)).filter((f) => f.status !== "pass" && f.status !== "skip");
    expect(dropped.map((f) => [f.file, f.data?.flag, f.data?.baseLine, f.data?.flagFile, f.data?.application])).toEqual(
      [
        [
          "overlays/prod/llama/values.yaml",
          "--cache-reuse",
          4,
          "overlays/prod/llama/values.yaml",
          "overlays/prod/llama/application.yaml",
        ],
      ],
    );
    expect(dropped[0]!.evidence?.join("\n")).toMatch(/Argo CD Application prod-llama/);
  });

  it.runIf(hasTool("helm"))(
    "passes while the production value file keeps every flag, and fails on a client flag dropped from it",
    async () => {
      const r = chartRepo();
      r.commit("prod: ctx moved", {
        "overlays/prod/llama/values.yaml": prodValues(["--jinja", "--cache-reuse", "256", "--ctx-size", "65536"]),
      });
      const found = await preflight(r);
      expect(found.filter((f) => f.status === "warn" || f.status === "fail")).toEqual([]);
      expect(found.some((f) => f.status === "pass" && f.file === "overlays/prod/llama/values.yaml")).toBe(true);
      r.commit("prod: context flag gone", {
        "overlays/prod/llama/values.yaml": prodValues(["--jinja", "--cache-reuse", "256"]),
      });
      const gone = (await preflight(r)).filter((f) => f.status === "fail");
      // a llama.cpp client contract: the context length clients were promised
      expect(gone.map((f) => [f.data?.flag, f.data?.baseLine])).toEqual([["--ctx-size", 6]]);
    },
  );

  it.runIf(hasTool("helm"))(
    "without --base: compares an edited value file with HEAD, an old change not at all",
    async () => {
      const r = chartRepo();
      r.commit("prod: cache reuse gone long ago", {
        "overlays/prod/llama/values.yaml": prodValues(["--jinja", "--ctx-size", "32768"]),
      });
      r.commit("unrelated", { "README.md": "homelab\n" });
      // the commit under check changed no value file: the old, deliberate removal is not reported on every run
      expect((await preflight(r, [])).filter((f) => f.data?.application)).toEqual([]);
      r.write("overlays/prod/llama/values.yaml", prodValues(["--ctx-size", "32768"]));
      const edited = (await preflight(r, [])).filter((f) => f.data?.application && f.status !== "pass");
      expect(edited.map((f) => [f.data?.flag, f.data?.baseLine, f.data?.base])).toEqual([
        ["--jinja", 3, expect.stringMatching(/^HEAD \(/)],
      ]);
    },
  );

  it.runIf(hasTool("helm"))("traces a flag of a packed dependency's template to the value file's list", async () => {
    // the engine's template lives in a dependency the repository keeps only as charts/*.tgz
    const r = tempRepo();
    repos.push(r);
    const sub = mkdtempSync(join(tmpdir(), "dg-sub-"));
    try {
      const w = (p: string, t: string) =>
        execFileSync("sh", ["-c", `mkdir -p "$(dirname "$1")" && cat > "$1"`, "sh", join(sub, p)], { input: t });
      w("stack/Chart.yaml", "apiVersion: v2\nname: stack\nversion: 0.1.0\n");
      w("stack/values.yaml", "model: m\nextraArgs: []\n");
      w("stack/templates/deployment.yaml", TEMPLATE);
      execFileSync("helm", ["package", join(sub, "stack"), "-d", sub], { stdio: "ignore" });
      r.write("charts/wrap/charts/stack-0.1.0.tgz", readFileSync(join(sub, "stack-0.1.0.tgz")));
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
    const wrapValues = (extra: string[]) =>
      ["stack:", "  model: /models/big.gguf", "  extraArgs:", ...extra.map((a) => `    - "${a}"`), ""].join("\n");
    r.commit("wrapper chart on a vendored llama stack", {
      "charts/wrap/Chart.yaml":
        "apiVersion: v2\nname: wrap\ndescription: llama.cpp server stack\nversion: 0.1.0\ndependencies:\n  - name: stack\n    version: 0.1.0\n    repository: https://example.invalid/charts\n",
      "charts/wrap/values.yaml": "stack:\n  model: /models/llama.gguf\n  extraArgs: []\n",
      "overlays/prod/llama/application.yaml": APP.replace("charts/llama", "charts/wrap"),
      "overlays/prod/llama/values.yaml": wrapValues(["--flash-attn", "on", "--cache-reuse", "256"]),
    });
    r.commit("prod: no cache reuse", {
      "overlays/prod/llama/values.yaml": wrapValues(["--flash-attn", "on"]),
    });
    const dropped = (await preflight(r)).filter((f) => f.status === "warn" && f.data?.application);
    expect(dropped.map((f) => [f.data?.flag, f.data?.flagFile, f.data?.baseLine])).toEqual([
      ["--cache-reuse", "overlays/prod/llama/values.yaml", 6],
    ]);
  });
});
