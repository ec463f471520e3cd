// Argo CD Applications read for the chart they deploy and the value files they apply on top of its own.
import { describe, expect, it } from "vitest";
import { appliedCharts } from "../../../src/domain/launch/argo-app.js";

const app = (source: string) =>
  [
    "apiVersion: argoproj.io/v1alpha1",
    "kind: Application",
    "metadata:",
    "  name: prod-engine",
    "spec:",
    "  project: default",
    source,
    "  destination: {server: https://kubernetes.default.svc, namespace: engine}",
    "",
  ].join("\n");

describe("appliedCharts", () => {
  it("resolves value files against the chart's path, in the order helm applies them", () => {
    const text = app(
      [
        "  source:",
        "    repoURL: https://example.invalid/team/infra.git",
        "    path: charts/engine/",
        "    helm:",
        "      valueFiles:",
        "        - values.yaml",
        "        - ../../overlays/prod/engine/values.yaml",
      ].join("\n"),
    );
    expect(appliedCharts("overlays/prod/engine/application.yaml", text)).toEqual([
      {
        file: "overlays/prod/engine/application.yaml",
        name: "prod-engine",
        chartDir: "charts/engine",
        valueFiles: ["charts/engine/values.yaml", "overlays/prod/engine/values.yaml"],
      },
    ]);
  });

  it("reads each of spec.sources, leaving out one whose value file is another source's ($values/...)", () => {
    const text = app(
      [
        "  sources:",
        "    - path: deploy/chart",
        "      helm: {valueFiles: [values-prod.yaml]}",
        "    - path: deploy/other",
        "      helm: {valueFiles: [$values/envs/prod.yaml]}",
        "    - repoURL: https://example.invalid/values.git",
        "      ref: values",
      ].join("\n"),
    );
    expect(appliedCharts("app.yaml", text).map((a) => [a.chartDir, a.valueFiles])).toEqual([
      ["deploy/chart", ["deploy/chart/values-prod.yaml"]],
    ]);
  });

  it("applies nothing for a source with no value files, a path outside the repository, or another kind", () => {
    expect(appliedCharts("a.yaml", app("  source:\n    path: charts/engine\n"))).toEqual([]);
    const outside = app("  source:\n    path: ../elsewhere\n    helm: {valueFiles: [values.yaml]}\n");
    expect(appliedCharts("a.yaml", outside)).toEqual([]);
    const set = app("  source:\n    path: c\n    helm: {valueFiles: [v.yaml]}\n").replace(
      "Application",
      "ApplicationSet",
    );
    expect(appliedCharts("a.yaml", set)).toEqual([]);
  });
});
