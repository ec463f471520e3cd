// kubectl's error output as klog writes it: one `err="..."` line, or (a message holding newlines, as a patch
// refused by the load restrictor is) an `err=<` block; both read to the message, the refused file found in it.
import { describe, expect, it } from "vitest";
import { restrictorRefusal, toolError } from "../../../src/ports/local/render.js";

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

  it("keeps any other first line as it is", () => {
    expect(toolError("Error: unknown flag: --x\nusage...")).toBe("Error: unknown flag: --x");
  });
});
