// The engines' own --help as the double prints it: vLLM's argparse groups (`vllm serve --help=all`), SGLang's
// argparse options, llama-server's table. The flags are the real engines' names (those the double reads, and
// the common ones the tests' scripts pass); --enable-reasoning, --task and the --guided-decoding-* flags
// are absent, as in the vLLM releases after they were dropped. verify.image-flags reads this. Pure.
import { SWITCH as LLAMA_SWITCH, VALUE as LLAMA_VALUE } from "./llama.js";
import { SWITCH as SGLANG_SWITCH, VALUE as SGLANG_VALUE } from "./sglang.js";

const VLLM_SWITCHES = [
  "enable-auto-tool-choice",
  "enforce-eager",
  "trust-remote-code",
  "enable-prefix-caching",
  "enable-chunked-prefill",
  "disable-log-stats",
  "enable-log-requests",
  "disable-uvicorn-access-log",
  "enable-expert-parallel",
  "enable-sleep-mode",
  "async-scheduling",
  "headless",
  "enable-lora",
  "expert-precise-memory",
];
const VLLM_VALUES = [
  "host",
  "port",
  "api-key",
  "served-model-name",
  "max-model-len",
  "max-num-seqs",
  "max-num-batched-tokens",
  "gpu-memory-utilization",
  "kv-cache-memory-bytes",
  "kv-cache-dtype",
  "tensor-parallel-size",
  "pipeline-parallel-size",
  "data-parallel-size",
  "reasoning-parser",
  "tool-call-parser",
  "tool-parser-plugin",
  "chat-template",
  "chat-template-content-format",
  "default-chat-template-kwargs",
  "speculative-config",
  "structured-outputs-config",
  "compilation-config",
  "runner",
  "convert",
  "dtype",
  "quantization",
  "cpu-offload-gb",
  "swap-space",
  "seed",
  "tokenizer",
  "download-dir",
  "load-format",
  "hf-token",
  "hf-overrides",
  "generation-config",
  "override-generation-config",
  "limit-mm-per-prompt",
  "uvicorn-log-level",
  "block-size",
  "max-loras",
  "lora-modules",
  "config",
  "show-hidden-metrics-for-version",
];
const upper = (f: string) => f.toUpperCase().replace(/-/g, "_");

/** `vllm serve --help=all`: each option with its metavar, then its description on the next line. */
export function vllmHelp(): string {
  const lines = [
    "usage: vllm serve [model_tag] [options]",
    "",
    "options:",
    "  -h, --help            show this help message and exit",
  ];
  for (const f of VLLM_SWITCHES)
    lines.push(`  --${f}, --no-${f}`, `                        Turn ${f.replace(/-/g, " ")} on or off.`);
  for (const f of VLLM_VALUES) {
    const alias = f === "tensor-parallel-size" ? `-tp ${upper(f)}, ` : "";
    const under = f.includes("-") ? `, --${f.replace(/-/g, "_")} ${upper(f)}` : "";
    lines.push(`  ${alias}--${f} ${upper(f)}${under}`, `                        The ${f.replace(/-/g, " ")}.`);
  }
  return `${lines.join("\n")}\n`;
}

export function sglangHelp(): string {
  const opts = [...SGLANG_VALUE].map((f) => `  --${f} ${upper(f)}`).concat([...SGLANG_SWITCH].map((f) => `  --${f}`));
  return `usage: launch_server.py [-h] --model-path MODEL_PATH [options]\n\noptions:\n  -h, --help            show this help message and exit\n${opts.map((o) => `${o.padEnd(24)}  the ${o.trim().split(" ")[0]!.slice(2)} option.`).join("\n")}\n`;
}

export function llamaHelp(): string {
  const rows = [...LLAMA_VALUE.keys()].map((f) => `${f} N`).concat([...LLAMA_SWITCH]);
  return `----- common params -----\n\n-h,    --help, --usage                  print usage and exit\n${rows.map((r) => `${r.padEnd(40)} the ${r.split(" ")[0]} option`).join("\n")}\n`;
}
