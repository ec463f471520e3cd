import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isServeScript } from "../../src/script/detect.js";

describe("isServeScript", () => {
  it("accepts a script that runs podman run or vllm serve", () => {
    expect(isServeScript(readFileSync(join(import.meta.dirname, "../fixtures/scripts/serve-archon.sh"), "utf8"))).toBe(true);
    expect(isServeScript("#!/bin/bash\nset -e\nexec vllm serve /models --port 8000\n")).toBe(true);
    expect(isServeScript("sudo -u dank podman run -d --name x img\n")).toBe(true);
  });

  it("rejects files that only mention them", () => {
    expect(isServeScript("#!/bin/bash\n# podman run is done by the unit\necho 'use podman run to start'\n")).toBe(false);
    expect(isServeScript("#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['podman', 'run', 'img'])\n")).toBe(false);
    expect(isServeScript("cat <<EOF > README\npodman run img\nEOF\n")).toBe(false);
    expect(isServeScript("#!/bin/bash\npodman ps -a\npodman logs x 2>&1 | tail\n")).toBe(false);
  });
});
