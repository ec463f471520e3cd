// Traps in how the engine container is started: `serve` passed to an image whose entrypoint already runs
// `vllm serve`, and a detached run whose stdout is redirected to a file expected to hold the log.
import { engineRuns, hitAt } from "./lookups.js";
import { runName } from "./devices.js";
import type { TrapRuleDef } from "./types.js";

/** Images whose entrypoint ends in `vllm serve "$@"`: vLLM's own (ENTRYPOINT ["vllm", "serve"]) and the
 *  seed's fork (/app/tools/image_entrypoint.sh). The config's `images:` adds or overrides. */
export const BUILTIN_ENTRYPOINT_SERVES: Readonly<Record<string, boolean>> = {
  "vllm/vllm-openai": true,
  "tcclaviger/vllm": true,
};

/** "docker.io/vllm/vllm-openai:v0.9@sha256:..." -> "vllm/vllm-openai" */
export function imageName(ref: string): string {
  let s = ref.replace(/@sha256:[0-9a-f]*$/i, "");
  const slash = s.lastIndexOf("/");
  const colon = s.lastIndexOf(":");
  if (colon > slash) s = s.slice(0, colon);
  return s.replace(/^(docker\.io|localhost|index\.docker\.io)\//, "").replace(/^library\//, "");
}

export function entrypointServes(
  ref: string,
  images: Readonly<Record<string, { entrypointServes: boolean }>>,
): boolean {
  const name = imageName(ref);
  for (const [k, v] of Object.entries(images)) if (imageName(k) === name) return v.entrypointServes;
  return BUILTIN_ENTRYPOINT_SERVES[name] ?? false;
}

export const entrypointServe: TrapRuleDef = {
  id: "entrypoint-serve",
  defaultLevel: "fail",
  runtimes: ["podman", "docker", "quadlet"],
  engines: ["vllm"],
  why:
    'the image\'s entrypoint already runs `vllm serve "$@"`, so a `serve` after the image becomes the model tag ' +
    "and the real model path an unexpected extra argument: the engine refuses to start",
  check: (ctx) =>
    engineRuns(ctx).flatMap(({ source, item: run }) => {
      const first = run.engineArgs[0];
      if (!run.image || first?.text !== "serve" || !entrypointServes(run.image.resolved ?? run.image.text, ctx.images))
        return [];
      return [
        hitAt(
          ctx,
          source.file,
          first.line,
          `\`serve\` is passed after ${run.image.text}, whose entrypoint already runs vllm serve`,
          `Drop the word serve: pass the model path as the first argument after the image (if this image's entrypoint does not serve, set images: { "${imageName(run.image.text)}": { entrypointServes: false } } in deploy-gate.yml).`,
        ),
      ];
    }),
};

const STDOUT_TO_FILE = /^(1?>>?|&>>?|>\||>&)$/;
// A file named for the ID is what a detached run's stdout is: that redirect is deliberate.
const ID_FILE = /(\.cid|container[-_]?id)["']?$/i;

export const detachedRedirect: TrapRuleDef = {
  id: "detached-redirect",
  defaultLevel: "warn",
  runtimes: ["podman", "docker"],
  engines: "any",
  why:
    "podman run -d without -a prints only the container ID: the engine's log never reaches the redirect, " +
    "so the file stays one line long while the real log is in podman logs (or the journal)",
  check: (ctx) =>
    engineRuns(ctx).flatMap(({ source, item: run }) => {
      const detached = run.options.some((o) => o.name === "--detach" || o.name === "-d");
      const attached = run.options.some((o) => o.name === "--attach" || o.name === "-a");
      const to = run.command.redirects.find(
        (r) =>
          STDOUT_TO_FILE.test(r.op) && !/^&\d$/.test(r.target) && r.target !== "/dev/null" && !ID_FILE.test(r.target),
      );
      if (!detached || attached || !to) return [];
      const line = run.command.endLine;
      return [
        hitAt(
          ctx,
          source.file,
          line,
          `${runName(run)} -d redirects its output to ${to.target}, which will only receive the container ID`,
          `Read the engine log with ${run.runtime} logs NAME 2>&1 (or journalctl CONTAINER_NAME=NAME with --log-driver journald); redirect only if you want the ID: ${run.runtime} run -d ... > ${to.target}.cid`,
        ),
      ];
    }),
};
