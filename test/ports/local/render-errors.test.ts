// kubectl's error output as klog writes it: one `err="..."` line, or (a message holding newlines, as a patch
// refused by the load restrictor is) an `err=<` block; both read to the message, the refused file found in it.
// And a chart whose Chart.yaml version is a release tool's placeholder, rendered as that tool would package it.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderManifests, restrictorRefusal, toolError } from "../../../src/ports/local/render.js";
import { hasTool } from "../../helpers/has-tool.js";

describe("kubectl kustomize errors", () => {
  it("reads a one-line err=", () => {
    const e = toolError(
      "E1203 10:00:00.000000    2247 run.go:72] \"command failed\" err=\"accumulating resources: security; file '/r/a/x.yaml' is not in or below '/r/a/b'\"\n",
    );
    expect(restrictorRefusal(e)).toEqual({ file: "/r/a/x.yaml", root: "/r/a/b" });
  });

  it("reads klog's err=< block up to its closing >", () => {
    const stderr = [
      'E1203 22:31:44.400223    2320 run.go:72] "command failed" err=<',
      "\ttrouble configuring builtin PatchTransformer with config: `",
      "\tpath: ../stub-probe.yaml",
      "\t`: failed to get the patch file from path(../stub-probe.yaml): security; file '/r/k/stub-probe.yaml' is not in or below '/r/k/cpu'",
      " >",
      "",
    ].join("\n");
    const e = toolError(stderr);
    expect(e).toMatch(/^trouble configuring builtin PatchTransformer with config: ` path: \.\.\/stub-probe\.yaml `: /);
    expect(restrictorRefusal(e)).toEqual({ file: "/r/k/stub-probe.yaml", root: "/r/k/cpu" });
  });

  it("reads past kustomize's deprecation warnings to the error", () => {
    const e = toolError(
      [
        "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
        "E1204 17:56:04.845785   14313 run.go:72] \"command failed\" err=\"accumulating resources: security; file '/r/k8s/base/ns.yaml' is not in or below '/r/k8s/overlays/dev'\"",
        "",
      ].join("\n"),
    );
    expect(restrictorRefusal(e)).toEqual({ file: "/r/k8s/base/ns.yaml", root: "/r/k8s/overlays/dev" });
    expect(toolError("# Warning: only a warning\n")).toBe("# Warning: only a warning");
  });

  it("keeps any other first line as it is", () => {
    expect(toolError("Error: unknown flag: --x\nusage...")).toBe("Error: unknown flag: --x");
  });
});

describe.runIf(hasTool("helm"))("a chart whose version a release tool fills in", () => {
  it("is rendered as the tool would package it; a version that is only wrong still fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-chart-version-"));
    try {
      mkdirSync(join(dir, "templates"));
      writeFileSync(join(dir, "values.yaml"), "image: vllm/vllm-openai:v0.11.0\n");
      writeFileSync(
        join(dir, "templates", "cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {image: {{ .Values.image }}}\n",
      );
      writeFileSync(join(dir, "Chart.yaml"), "apiVersion: v2\nname: vllm\nversion: '[[ .Version ]]'\n");
      const r = await renderManifests("helm", dir);
      expect("text" in r && r.text).toMatch(/image: vllm\/vllm-openai:v0\.11\.0/);
      // the chart in the repository is untouched
      expect(readFileSync(join(dir, "Chart.yaml"), "utf8")).toMatch(/\[\[ \.Version \]\]/);
      writeFileSync(join(dir, "Chart.yaml"), "apiVersion: v2\nname: vllm\nversion: one\n");
      expect(await renderManifests("helm", dir)).toEqual({ error: expect.stringMatching(/version "one" is invalid/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
