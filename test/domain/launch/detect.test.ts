import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isServeScript } from "../../../src/domain/launch/detect.js";

describe("isServeScript", () => {
  it("accepts a script that runs podman run or vllm serve", () => {
    expect(
      isServeScript(readFileSync(join(import.meta.dirname, "../../fixtures/launch/scripts/serve-archon.sh"), "utf8")),
    ).toBe(true);
    expect(isServeScript("#!/bin/bash\nset -e\nexec vllm serve /models --port 8000\n")).toBe(true);
    expect(isServeScript("sudo -u dank podman run -d --name x docker.io/vllm/vllm-openai --model /m\n")).toBe(true);
    expect(isServeScript("#!/bin/sh\n./llama-server -m /m.gguf --port 8080\n")).toBe(true);
    expect(isServeScript('#!/bin/bash\n"$PY" -m sglang.launch_server --model-path /m\n')).toBe(true);
  });

  it("rejects files that only mention them", () => {
    expect(isServeScript("#!/bin/bash\n# podman run is done by the unit\necho 'use podman run to start'\n")).toBe(
      false,
    );
    expect(isServeScript("#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['podman', 'run', 'img'])\n")).toBe(
      false,
    );
    expect(isServeScript("cat <<EOF > README\npodman run img\nEOF\n")).toBe(false);
    expect(isServeScript("#!/bin/bash\npodman ps -a\npodman logs x 2>&1 | tail\n")).toBe(false);
    // a container that is not an inference server, and a client of one
    expect(isServeScript("#!/bin/bash\ndocker run -d --name pg -e POSTGRES_PASSWORD=x postgres:16\n")).toBe(false);
    expect(
      isServeScript("#!/bin/bash\npodman run -d --name r docker.io/library/redis:7 redis-server --port 6379\n"),
    ).toBe(false);
    expect(
      isServeScript("#!/bin/bash\ndocker run --gpus all lmsysorg/sglang python3 -m sglang.bench_serving --port 8000\n"),
    ).toBe(false);
    expect(isServeScript("#!/bin/bash\necho 'then run: vllm serve /m --port 8000'\n")).toBe(false);
  });
});
