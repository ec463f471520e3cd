// The engine double's entrypoint: `node engine.mjs MODEL --vllm-flags...`, like the seed's vLLM image (or
// `node vllm serve MODEL …`, like vLLM's CLI run by a unit without a container), or
// another engine's command (`llama-server …`, `python3 -m sglang.launch_server …`: other-engines.ts).
import { createServer } from "node:http";
import { bootScript, type Step } from "./boot.js";
import { crashWrites } from "./failures.js";
import { type Proc, uvicorn } from "./format.js";
import { newCounters, vllmHandler } from "./http.js";
import { ArgvError, makePlan } from "./plan.js";
import { asksHelp, serveOther } from "./other-engines.js";
import { vllmHelp } from "./help.js";

// Run as `vllm serve MODEL …` (a `vllm` launcher next to engine.mjs, for units that start the engine
// without a container), the words after `serve` are the argv, as vLLM's CLI reads them.
const ARGV =
  /(^|\/)vllm$/.test(process.argv[1] ?? "") && process.argv[2] === "serve"
    ? process.argv.slice(3)
    : process.argv.slice(2);
// `vllm serve --help=all` (the image's entrypoint with the help flag): argparse prints and exits 0
if (!serveOther(ARGV)) {
  if (asksHelp(ARGV)) process.stdout.write(vllmHelp());
  else serveVllm();
}

function serveVllm(): void {
  const api: Proc = { name: "APIServer", pid: process.pid };
  const core: Proc = { name: "EngineCore_DP0", pid: process.pid + 74 };
  let plan;
  try {
    plan = makePlan(ARGV, process.env);
  } catch (e) {
    if (!(e instanceof ArgvError)) throw e;
    process.stderr.write(`usage: vllm serve [model_tag] [options]\nvllm serve: error: ${e.message}\n`);
    process.exit(2);
  }
  const p = plan;
  const counters = newCounters();
  const server = createServer(vllmHandler(p, counters, Date.now(), (line) => process.stdout.write(line), api));

  function play(step: Step): void {
    if ("listen" in step) server.listen(p.port, p.host);
    else if ("exit" in step) {
      server.close();
      process.exitCode = step.exit;
      setTimeout(() => process.exit(step.exit), 50);
    } else (step.stream === "stdout" ? process.stdout : process.stderr).write(step.text(new Date()));
  }

  const steps = bootScript(p, api, core);
  if (p.crashAfterSeconds !== null) steps.push(...crashWrites(api, core, p.crashAfterSeconds * 1000));
  for (const s of steps) setTimeout(() => play(s), s.at);
  // podman stop sends SIGTERM: exit promptly like uvicorn's shutdown.
  process.on("SIGTERM", () => {
    process.stderr.write(uvicorn(api, "INFO", "Shutting down"));
    process.exit(0);
  });
}
