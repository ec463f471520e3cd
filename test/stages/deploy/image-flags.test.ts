// verify.image-flags against a real shell: the host script asks the image (a podman stand-in on PATH that
// records its argv and prints vLLM-shaped help) once per image ID, keeps the help on the host, and the
// launch file's flags are judged against it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import type { Host } from "../../../src/ports/host/host.js";
import { argvHost } from "../../helpers/argv-host.js";
import { checkImageFlags, helpRun } from "../../../src/stages/deploy/image-flags.js";

const HELP = `usage: vllm serve [model_tag] [options]
options:
  -h, --help            show this help message and exit
  --host HOST           Host name.
  --port PORT           Port number.
  --reasoning-parser {deepseek_r1,qwen3}
                        Select the reasoning parser.
  --max-model-len MAX_MODEL_LEN, --max_model_len MAX_MODEL_LEN
                        Model context length.
  --served-model-name SERVED_MODEL_NAME [SERVED_MODEL_NAME ...]
                        The model name(s) used in the API.
`;

function shellHost(opts: { imageId: string | null; helpExit?: number }) {
  const dir = mkdtempSync(join(tmpdir(), "dg-imgflags-"));
  const bin = join(dir, "bin");
  spawnSync("mkdir", ["-p", bin, join(dir, "home")]);
  writeFileSync(join(dir, "help.txt"), HELP);
  writeFileSync(
    join(bin, "podman"),
    [
      "#!/bin/sh",
      `if [ "$1" = image ]; then ${opts.imageId ? `echo ${opts.imageId}; exit 0` : "echo 'Error: no such image' >&2; exit 125"}; fi`,
      `echo "$*" >> ${dir}/runs`,
      `cat ${dir}/help.txt`,
      `exit ${opts.helpExit ?? 0}`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const host: Host = {
    ...argvHost,
    runShell: async (script: string) => {
      const r = spawnSync("sh", ["-c", script], {
        env: { PATH: `${bin}:/usr/bin:/bin`, HOME: join(dir, "home") },
        encoding: "utf8",
      });
      return {
        code: r.status,
        signal: null,
        stdout: r.stdout,
        stderr: r.stderr,
        timedOut: false,
        truncated: false,
        durationMs: 1,
      };
    },
  };
  const runs = () => readFileSync(join(dir, "runs"), "utf8").trim().split("\n").filter(Boolean);
  return { host, runs };
}

const script = (flags: string) =>
  parseLaunch(
    "script",
    `#!/bin/bash\nexec podman run --rm --name q -p 8000:8000 docker.io/vllm/vllm-openai:v0.11.0 --port 8000 ${flags}\n`,
  );

describe("verify.image-flags", () => {
  it("asks the image its own help once per image ID and fails a flag it dropped, naming the change", async () => {
    const { host, runs } = shellHost({ imageId: "sha256:0123456789abcdef" });
    const bad = await checkImageFlags(host, script("--enable-reasoning --reasoning-parser qwen3"), () => {});
    expect(bad.status).toBe("fail");
    expect(bad.summary).toBe(
      "docker.io/vllm/vllm-openai:v0.11.0 does not know --enable-reasoning: the engine would refuse to boot",
    );
    expect(bad.fix).toMatch(/^nothing was changed on the host: --enable-reasoning: deprecated in vLLM 0\.9\.0/);
    expect(runs()).toEqual(["run --rm --pull=never --network=none docker.io/vllm/vllm-openai:v0.11.0 --help=all"]);
    const good = await checkImageFlags(host, script("--max_model_len 8192 --served-model-name q"), () => {});
    expect(good.status, JSON.stringify(good)).toBe("pass");
    expect(good.data).toMatchObject({ cached: true, imageId: "sha256:0123456789abcdef" });
    expect(runs()).toHaveLength(1); // the second deploy read the kept help
  });

  it("an image not on the host yet is skipped (the restart pulls it); a help that fails is a warning", async () => {
    expect((await checkImageFlags(shellHost({ imageId: null }).host, script("--port 1"), () => {})).status).toBe(
      "skip",
    );
    const failing = await checkImageFlags(
      shellHost({ imageId: "sha256:ff", helpExit: 2 }).host,
      script("--x"),
      () => {},
    );
    expect(failing.status).toBe("warn");
    expect(failing.summary).toMatch(/help exited 2/);
  });

  it("runs the launch file's own program and entrypoint with the help flag", () => {
    const sg = helpRun(
      parseLaunch(
        "script",
        "#!/bin/bash\nexec docker run --rm lmsysorg/sglang:latest python3 -m sglang.launch_server --model-path /m --port 30000\n",
      ),
    );
    expect(sg).toMatchObject({
      kind: "sglang",
      argv: [
        "docker",
        "run",
        "--rm",
        "--pull=never",
        "--network=none",
        "lmsysorg/sglang:latest",
        "python3",
        "-m",
        "sglang.launch_server",
        "--help",
      ],
    });
    const ep = helpRun(
      parseLaunch("script", "#!/bin/bash\nexec podman run --rm --entrypoint vllm my/vllm:1 serve /models/q --port 1\n"),
    );
    expect(ep).toMatchObject({
      argv: [
        "podman",
        "run",
        "--rm",
        "--pull=never",
        "--network=none",
        "--entrypoint=vllm",
        "my/vllm:1",
        "serve",
        "--help=all",
      ],
    });
    expect(helpRun(parseLaunch("script", "#!/bin/bash\nexec vllm serve /m --port 1\n"))).toEqual({
      skip: "the engine runs without a container: there is no image to ask",
    });
  });
});
