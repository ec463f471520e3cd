// Which engine the double plays, from its argv as the container's command: `llama-server …` (llama.cpp),
// `python3 -m sglang.launch_server …` (SGLang), else vLLM (main.ts). Reads the model file for llama.cpp.
import { fileMagic, serveLite } from "./lite-server.js";
import { LlamaArgvError, llamaLite, llamaPlan } from "./llama.js";
import { SglangArgvError, sglangLite, sglangPlan } from "./sglang.js";
import { llamaHelp, sglangHelp } from "./help.js";

const asksHelp = (args: readonly string[]) => args.some((a) => a === "-h" || a === "--help" || a.startsWith("--help="));

/** Serves the engine argv names and returns true, or false: vLLM's double serves it. */
export function serveOther(argv: readonly string[]): boolean {
  if (argv[0] === "llama-server") {
    if (asksHelp(argv.slice(1))) return printHelp(llamaHelp());
    try {
      const p = llamaPlan(argv.slice(1), process.env);
      const magic = fileMagic(p.model);
      serveLite(llamaLite(p, magic === null ? "missing" : magic === "GGUF" ? "ok" : "not-gguf"));
    } catch (e) {
      if (!(e instanceof LlamaArgvError)) throw e;
      process.stderr.write(`${e.message}\nusage: /app/llama-server [options]\n\nto show complete usage, run with -h\n`);
      process.exit(1);
    }
    return true;
  }
  const m = argv.indexOf("-m");
  if (m >= 0 && argv[m + 1] === "sglang.launch_server") {
    if (asksHelp(argv.slice(m + 2))) return printHelp(sglangHelp());
    try {
      serveLite(sglangLite(sglangPlan(argv.slice(m + 2), process.env)));
    } catch (e) {
      if (!(e instanceof SglangArgvError)) throw e;
      process.stderr.write(
        `usage: launch_server.py [-h] --model-path MODEL_PATH [options]\nlaunch_server.py: error: ${e.message}\n`,
      );
      process.exit(2);
    }
    return true;
  }
  return false;
}

/** argparse and llama-server print their help and exit 0 */
function printHelp(text: string): true {
  process.stdout.write(text);
  process.exitCode = 0;
  return true;
}

export { asksHelp };
