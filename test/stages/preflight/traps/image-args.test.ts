// entrypoint-serve follows the config's images: over the built-in list; detached-redirect spares ID files.
import { describe, expect, it } from "vitest";
import { checkTraps } from "../../../../src/stages/preflight/traps/check-traps.js";
import { entrypointServes, imageName } from "../../../../src/stages/preflight/traps/image-args.js";
import { parseServeScript } from "../../../../src/domain/launch/parse.js";

const rules = (text: string, images = {}) =>
  checkTraps({ script: parseServeScript(text), scriptPath: "s.sh", unit: null, images }, {})
    .filter((f) => f.status !== "pass" && ["entrypoint-serve", "detached-redirect"].includes(String(f.data?.rule)))
    .map((f) => `${String(f.data?.rule)}@${f.line}`);

describe("image argument traps", () => {
  it("normalises image references", () => {
    expect(imageName("docker.io/vllm/vllm-openai:v0.11.0@sha256:abc123")).toBe("vllm/vllm-openai");
    expect(imageName("localhost:5000/me/vllm:dev")).toBe("localhost:5000/me/vllm");
    expect(entrypointServes("docker.io/tcclaviger/vllm:latest", {})).toBe(true);
    expect(entrypointServes("quay.io/me/engine:1", {})).toBe(false);
    expect(entrypointServes("quay.io/me/engine:1", { "quay.io/me/engine": { entrypointServes: true } })).toBe(true);
    expect(
      entrypointServes("vllm/vllm-openai:latest", { "docker.io/vllm/vllm-openai": { entrypointServes: false } }),
    ).toBe(false);
  });

  it("entrypoint-serve trips only where the image is known to serve", () => {
    const script = (img: string) =>
      `#!/bin/bash\npodman rm -f c || true\npodman run -d --name c --replace \\\n  ${img} serve /models \\\n  --port 7770\n`;
    expect(rules(script("quay.io/me/engine:1"))).toEqual([]);
    expect(rules(script("quay.io/me/engine:1"), { "quay.io/me/engine": { entrypointServes: true } })).toEqual([
      "entrypoint-serve@4",
    ]);
    expect(rules(script("vllm/vllm-openai:v0.11.0"))).toEqual(["entrypoint-serve@4"]);
  });

  it("detached-redirect trips on a log file, not on /dev/null, an ID file or an attached run", () => {
    const run = (tail: string, opts = "-d") =>
      `#!/bin/bash\npodman rm -f c || true\npodman run ${opts} --name c --replace img /models --port 7770 ${tail}\n`;
    expect(rules(run("> /var/log/engine.log"))).toEqual(["detached-redirect@3"]);
    expect(rules(run(">> engine.log 2>&1"))).toEqual(["detached-redirect@3"]);
    expect(rules(run("> /dev/null"))).toEqual([]);
    expect(rules(run("> /run/engine.cid"))).toEqual([]);
    expect(rules(run("> engine.log", "-d -a stdout"))).toEqual([]);
  });
});
