// Which inference engine a command starts, and with which argv: `vllm serve`, `python -m
// vllm.entrypoints.openai.api_server` (any interpreter, also "$PY"), `python -m sglang.launch_server`,
// `llama-server`, the same behind the wrappers wrappers.ts peels (systemd-run, screen, tmux, apptainer exec, docker
// exec...) or nohup/exec/env, inside a `bash -c "..."` string, or after the image of a container run (the image's
// entrypoint, or an --entrypoint override). Pure.
import type { PodmanRun, Runtime, Word } from "./model.js";
import { isFlagWord, readFlags } from "./flags.js";
import { basename } from "./words.js";
import { lexWords } from "./lexer.js";
import { peel, skipOptions, tmuxCommand } from "./wrappers.js";
import type { EngineKind } from "../engine/kind.js";

export interface EngineHints {
  /** the program a dynamic word names, as far as the file says ("$VLLM_BIN" -> .../bin/vllm) */
  guess(text: string): string;
  /** the file mentions llama.cpp: a bare `./server -m` is its pre-rename server binary */
  llama: boolean;
  /** re-read a `-c` string as a script (its "$@" the words given after $0); its engine, if any */
  nested(text: string, line: number, positional?: Word[]): Found | null;
  /** the source text a variable was last assigned (quotes removed, lines kept) and its line, for `bash -c "$CMD"` */
  source(name: string): { text: string; line: number } | null;
}

export interface Found {
  kind: EngineKind;
  args: Word[];
  /** set when the engine came from a `-c` string that runs it in a container (`sh -c "podman run ..."`) */
  run?: PodmanRun | null;
  runtime?: Runtime;
  /** every launch of a role switch in the `-c` string (leader and worker), when it has one */
  roles?: Found[];
  /** the team's own program that builds the engine's argv when it runs: no flag of it is known here */
  builtBy?: string;
}

// (`your-vllm-image`: a name to fill in, last part only; `your-registry/vllm/vllm-openai` is vLLM's image)
const PLACEHOLDER_IMAGE = /placeholder|replace[-_]?(with|me)|change[-_]?me|your[-_]image|(^|\/)your[-_][^/]*$/i;

const SHELL = /^(ba|da|z|k)?sh$/;
const PYTHON = /^python[0-9.]*$/;
/** programs that, run after an image, replace its entrypoint's engine (a bench client, a shell command) */
const PROGRAM =
  /^(python[0-9.]*|(ba|da|z|k)?sh|vllm|sglang|node|env|sleep|ls|cat|pip[0-9.]*|huggingface-cli|hf|test|true|echo|printenv|stat|find|mkdir|chown|chmod|rm|cp|mv|du|df|nvidia-smi|rocm-smi|nsenter|curl|wget)$/;
/** vLLM flags that mark an argv as an engine's when the image is unknown (an engine double, a custom build) */
const VLLM_TYPICAL = new Set([
  "--model",
  "--served-model-name",
  "--max-model-len",
  "--tensor-parallel-size",
  "--gpu-memory-utilization",
  "--reasoning-parser",
  "--tool-call-parser",
  "--enable-auto-tool-choice",
  "--kv-cache-dtype",
  "--max-num-seqs",
  "--chat-template",
]);

function programName(w: Word, h: EngineHints): string {
  // (a program word that expands to nothing, `${_BIN}` of `_BIN=${LLAMA_SERVER_BIN:-""}`, is set from outside: guessed)
  const text = (w.resolved === "" && w.dynamic ? undefined : w.resolved) ?? (w.dynamic ? h.guess(w.text) : w.text);
  // (a Windows build's `llama-server.exe`, which scripts probe for beside the Unix name, is the same program)
  const name = basename(text.replace(/["'{}]/g, "")).replace(/\.exe$/i, "");
  // a binary the file never assigns (it comes from a sourced env file or an installer): its variable's name says
  // which program it is (`"$LLAMA_SERVER"`, `${LLAMA_SERVER_BIN}`, `$VLLM_BIN`)
  const held = w.dynamic && w.resolved === undefined ? /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(name) : null;
  if (held && /^LLAMA_SERVER(_(BIN|PATH|EXE|CMD))?$/i.test(held[1]!)) return "llama-server";
  // `"$LLAMACPP_BIN"`: one of llama.cpp's programs, the server when it is given a host or port (directEngine)
  if (held && /^LLAMA_?CPP(_SERVER)?_(BIN|BINARY|PATH|EXE|CMD)$/i.test(held[1]!)) return LLAMA_CPP_BINARY;
  return name;
}

const LLAMA_CPP_BINARY = "(a llama.cpp program)";

/**
 * Options that make an engine print something and exit (llama.cpp's arg.cpp: -h/--help/--usage, --version,
 * --list-devices, --completion-bash, -cl/--cache-list; argparse's -h/--help in vLLM and SGLang): a build script's
 * `llama-server --version` starts no server.
 */
const PRINTS_AND_EXITS = new Set([
  "-h",
  "--help",
  "--usage",
  "--version",
  "--list-devices",
  "--completion-bash",
  "-cl",
  "--cache-list",
]);

export function printsAndExits(args: readonly Word[]): boolean {
  return args.some((w) => PRINTS_AND_EXITS.has(w.text));
}

/** The engine a command runs itself (not through a container runtime), or null. */
export function directEngine(words: readonly Word[], h: EngineHints): Found | null {
  const w = peel(words);
  const first = w[0];
  if (!first) return null;
  // `eval "exec vllm serve ... \⏎ --port 8000"`: eval joins its words with spaces and reads them as a command line
  const evalAt = words.findIndex((x) => x.text === "eval");
  if (evalAt >= 0 && evalAt < words.indexOf(first) && /\s/.test(first.text.trim()))
    return h.nested(w.map((x) => x.text).join(" "), first.line);
  // `$CMD` or `eval $CMD`: the command a variable holds, split as the shell splits it, read where it was written
  const held = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(first.text);
  // a whole command (program and arguments), not a program path: `"$BIN" --port 8000` is read below
  const heldSource = held && first.dynamic ? h.source(held[1]!) : null;
  // (`PY="$(command -v python3)"` holds the output of a command, a program path: not a command to run)
  const substituted = heldSource && /^\s*(\$\(|`)/.test(heldSource.text);
  if (heldSource && !substituted && /^\s*[^\s-]\S*\s+\S/.test(heldSource.text))
    return h.nested(heldSource.text, heldSource.line);
  const prog = programName(first, h);
  if (prog === "vllm" && w[1]?.text === "serve") return { kind: "vllm", args: w.slice(2) };
  // `/launch-cluster.sh vllm serve ...` (a container's wrapper that sets up, then runs its arguments): the engine
  // its arguments start
  if (/\.(ba)?sh$/.test(first.text) && w.length > 2) {
    const inner = directEngine(w.slice(1), h);
    if (inner) return inner;
  }
  // SGLang's own CLI (sglang/cli/main.py: `sglang serve --model-path ...`), beside python -m sglang.launch_server
  if (prog === "sglang" && w[1]?.text === "serve") return { kind: "sglang", args: w.slice(2) };
  if (prog === "tmux") {
    const cmd = tmuxCommand(w);
    // one word: a string tmux hands to the shell, read like `sh -c "..."`
    if (cmd?.length === 1) return h.nested(cmd[0]!.text, cmd[0]!.line);
    return cmd && cmd.length > 1 ? directEngine(cmd, h) : null;
  }
  if (prog === "llama-server" || (prog === "server" && h.llama)) return { kind: "llama.cpp", args: w.slice(1) };
  // a package's console script named for the engine server it runs in-process, handing on its argv
  // (`mineru-vllm-server`, `mineru-sglang-server --port 30000`)
  const named = /^[a-z][\w.]*[-_](vllm|sglang)[-_]server$/.exec(prog)?.[1];
  if (named) return { kind: named === "vllm" ? "vllm" : "sglang", args: w.slice(1) };
  if (prog === LLAMA_CPP_BINARY && w.some((x) => /^--(host|port)(=|$)/.test(x.text)))
    return { kind: "llama.cpp", args: w.slice(1) };
  if (PYTHON.test(prog) || first.dynamic) {
    let i = 1;
    while (w[i] && /^-[A-Za-z]+$/.test(w[i]!.text) && w[i]!.text !== "-m") i++;
    if (w[i]?.text === "-m") {
      const mod = w[i + 1]?.text ?? "";
      const kind: EngineKind | null = /^vllm\.entrypoints\./.test(mod)
        ? "vllm"
        : mod === "sglang.launch_server"
          ? "sglang"
          : null;
      return kind ? { kind, args: w.slice(i + 2) } : null;
    }
  }
  // `sg render -c "CMD"`, `su - svc -c "CMD"`, `runuser -u svc -c "CMD"`: the shell of another group or user runs CMD
  if (/^(sg|su|runuser)$/.test(prog)) {
    const c = w.findIndex((x, j) => j > 0 && (x.text === "-c" || x.text === "--command"));
    const script = c > 0 ? w[c + 1] : undefined;
    if (script) return h.nested(script.text, script.line);
  }
  if (SHELL.test(prog)) {
    for (let i = 1; i < w.length && w[i]!.text.startsWith("-"); i++) {
      if (!/^-[A-Za-z]*c[A-Za-z]*$/.test(w[i]!.text)) continue;
      // bash runs the first non-option word after -c (`bash -lc -- "..."`: `--` ends the options)
      let s = i + 1;
      while (w[s] && w[s]!.text.startsWith("-") && w[s]!.text !== "--") s++;
      if (w[s]?.text === "--") s++;
      const script = w[s];
      if (!script) continue;
      // `bash -c "$CMD"`: read what the script assigned to CMD, at the lines it was written on
      const ref = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(script.text);
      const src = ref ? h.source(ref[1]!) : null;
      // the words after the text are $0, then the positional parameters its "$@" stands for
      const read = src ? h.nested(src.text, src.line) : h.nested(script.text, script.line, w.slice(s + 2));
      // built by `cmd+=" --flag"` lines instead: the words cmd held there, each at its own line
      const held = script.held ? directEngine(script.held, h) : null;
      const count = (f: Found | null) => (f ? readFlags(f.args).flags.length : -1);
      return held && count(held) > count(read) ? held : read;
    }
    // `bash wrapper.sh python -m vllm...`: a wrapper (secrets, env) that ends in `exec "$@"` runs its arguments
    const script = skipOptions(w, 1, new Set());
    if (w[script] && /\.(sh|bash)$/.test(w[script]!.text)) return directEngine(w.slice(script + 1), h);
  }
  return null;
}

/**
 * "docker.io/vllm/vllm-openai:v0.9" -> vllm; lmsysorg/sglang -> sglang; ghcr.io/ggml-org/llama.cpp:server -> llama.cpp
 */
export function imageEngine(ref: string): EngineKind | null {
  const name = ref.replace(/@sha256:.*$/, "");
  // an application built around an engine (a Gradio UI, a RAG client, a router) names it too: not the engine
  const image =
    name
      .replace(/:[^/]*$/, "")
      .split("/")
      .at(-1) ?? "";
  if (APP_WORDS.test(image)) return null;
  // the image's own name (with its tag) says the engine, not its registry or namespace: `ghcr.io/vllm-project/guidellm`
  // is a load generator, `.../vllm-mistral-7b/kb-chat:latest` a UI in a namespace named after the model it calls
  const named = name.split("/").at(-1) ?? "";
  if (/sglang/i.test(named)) return "sglang";
  // another server named like an engine (llama-cpp-python's, allenporter/llama-cpp-server's, Triton's vLLM tag)
  if (OTHER_SERVERS.test(name.replace(/:[^/]*$/, ""))) return null;
  if (/llama[._-]?cpp|llama-server/i.test(named)) return "llama.cpp";
  if (/vllm/i.test(named)) return "vllm";
  return null;
}

/** Words of an image's own name that say it is an application next to an engine, not the engine. */
const APP_WORDS =
  /(^|[-_.])(ui|webui|gradio|streamlit|client|proxy|router|gateway|rag|frontend|bench|benchmark|exporter|operator|controller|pgvector|sidecar|sim|simulator|mock|stub|fake|dummy|emulator|consumer|producer)([-_.]|$)/i;

/**
 * Other inference servers' images, whose argv borrows vLLM's spellings (`--model`, `--served-model-name`): Modular's
 * MAX, Hugging Face's TGI, Ollama, LMDeploy, Triton/TensorRT-LLM, LocalAI, Aphrodite, TabbyAPI, llama-cpp-python's
 * server (`python -m llama_cpp.server`, also in allenporter/llama-cpp-server's images: their Dockerfiles). Not the
 * gate's engines.
 */
const OTHER_SERVERS =
  /(^|\/)(modular\/max[^/]*|[^/]*text-generation-inference[^/]*|ollama|[^/]*lmdeploy[^/]*|[^/]*tritonserver[^/]*|[^/]*tensorrt[-_]llm[^/]*|localai|[^/]*aphrodite[^/]*|[^/]*tabbyapi[^/]*|[^/]*llama[-_.]?cpp[-_.]?python[^/]*|allenporter\/llama-cpp-server[^/]*)$/i;

const ROUTER_IMAGE = /(^|\/)llama-swap$/i;

/** llama.cpp's own flags: an argv for an unknown image that carries them is llama-server's */
const LLAMA_TYPICAL = new Set([
  "-ngl",
  "--n-gpu-layers",
  "--gpu-layers",
  "-fa",
  "--flash-attn",
  "--ctx-size",
  "-c",
  "--jinja",
  "-np",
  "--parallel",
  "-hf",
  "--hf-repo",
  "--mlock",
  "--no-mmap",
  "-ctk",
  "--cache-type-k",
]);

/**
 * A program named as a launcher of an engine (`vllm_launcher.py`, `start-sglang.sh`, run alone or by python / a
 * shell): that engine. Not a benchmark, test, evaluation or client of it.
 */
function launcherKind(words: readonly Word[]): EngineKind | null {
  const i = /^(?:\S*\/)?(?:python[\d.]*|(?:ba|da)?sh)$/.test(words[0]?.text ?? "") ? 1 : 0;
  const name = (words[i]?.text ?? "").split("/").at(-1)!.toLowerCase();
  const m = /^([\w-]*)\.(?:py|sh)$/.exec(name);
  if (!m || /bench|test|eval|client|proxy|router/.test(m[1]!) || !/launch|serve|server|start|run/.test(m[1]!))
    return null;
  const engine = /(?:^|[_-])(vllm|sglang|llama[_-]?(?:cpp|server))(?:[_-]|$)/.exec(m[1]!)?.[1];
  return engine === undefined ? null : engine === "vllm" ? "vllm" : engine === "sglang" ? "sglang" : "llama.cpp";
}

/**
 * An interactive terminal session (-it, attached) in a local image (no registry or namespace), no GPU, no port; or in
 * an NVIDIA NGC image (`nvcr.io/nvidia/vllm:25.11-py3`), whose entrypoint starts a shell when no command is given:
 * the team works in it, the engine is started by hand.
 */
function interactiveShell(run: PodmanRun, untagged: string): boolean {
  const has = (name: string) => run.options.some((o) => o.name === name);
  const gpu = has("--gpus") || has("--runtime") || run.devices.length > 0;
  const attached = has("--interactive") && has("--tty") && !has("--detach");
  if (attached && /^nvcr\.io\/nvidia\//.test(untagged)) return true;
  return attached && !untagged.includes("/") && !gpu && !run.publish.length;
}

/** `sh -c "SCRIPT.sh ARGS..."` on an engine image, SCRIPT.sh mounted by the run and given flags: the engine, ARGS. */
function scriptHandedArgs(run: PodmanRun, words: readonly Word[]): Found | null {
  const kind = run.image ? imageEngine(run.image.resolved ?? run.image.text) : null;
  const c = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.text));
  if (!kind || !SHELL.test(basename(words[0]?.text ?? "")) || c < 0 || !words[c + 1]) return null;
  const inner = lexWords(words[c + 1]!.text, words[c + 1]!.line).map((w) => ({ ...w, line: words[c + 1]!.line }));
  if (!mountedScript(run, inner) || !/\.sh$/.test(inner[0]?.text ?? "")) return null;
  const args = inner.slice(1);
  return args.some((w) => isFlagWord(w.text)) ? { kind, args } : null;
}

/** The run executes a shell script it bind-mounts into the container (one of its first words is a mount's target). */
function mountedScript(run: PodmanRun, words: readonly Word[]): boolean {
  const scripts = words
    .slice(0, 3)
    .map((w) => w.text.replace(/^["']|["']$/g, ""))
    .filter((t) => /\.sh$/.test(t));
  return scripts.some((s) => run.volumes.some((v) => v.target === s && /\.sh$/.test(v.source)));
}

/** An engine image told to run a shell script the team mounts (`/bin/sh /vllm-entrypoint.sh`): the image's engine. */
function scriptOnEngineImage(run: PodmanRun, words: readonly Word[]): EngineKind | null {
  const kind = run.image ? imageEngine(run.image.resolved ?? run.image.text) : null;
  const script = words.slice(0, 3).some((w) => /^\S*\.sh$/.test(w.text.replace(/^["']|["']$/g, "")));
  return kind && script ? kind : null;
}

/**
 * The engine a container run starts: the program after the image, an --entrypoint override, or the image's own
 * entrypoint.
 */
export function containerEngine(run: PodmanRun, h: EngineHints): Found | null {
  const after = run.engineArgs;
  const entry = run.options.filter((o) => o.name === "--entrypoint" && o.value).at(-1);
  if (entry) {
    const text = (entry.resolvedValue ?? entry.value!).replace(/^\[\s*"?|"?\s*\]$/g, "");
    const words = [{ text, line: entry.line, optional: false, dynamic: false }, ...after];
    const found = directEngine(words, h);
    if (found) return found;
    // `--entrypoint /bin/bash IMAGE -c "/entrypoint.sh MODEL --flag ..."`: a script the run mounts, on the engine's
    // image, handed the engine's arguments (it patches, then `exec vllm serve "$@"`): those are the engine's flags
    const handed = scriptHandedArgs(run, words);
    if (handed) return handed;
    // an engine image whose entrypoint is a script the team mounts (`/bin/sh /vllm-entrypoint.sh`): the engine
    // starts there, with flags that script writes (its own launch file), none known here
    const kind = scriptOnEngineImage(run, words);
    return kind ? { kind, args: [], builtBy: words.map((w) => w.text).join(" ") } : null;
  }
  const first = after[0];
  if (first && !isFlagWord(first.text)) {
    const found = directEngine(after, h);
    if (found) return found;
    // the team's own launcher of the engine (`python /app/scripts/vllm_launcher.py`) in a container given GPUs: an
    // engine launch whose flags the program builds when it runs, so none is known here
    const own = launcherKind(after) ?? scriptOnEngineImage(run, after);
    // (an engine image running a script the run mounts into it, `./scripts/llm-entrypoint.sh:/entry.sh`, is that
    // engine's launcher, GPUs or not: a llama.cpp server often runs on CPUs)
    if (own && (run.options.some((o) => o.name === "--gpus") || mountedScript(run, after)))
      return { kind: own, args: [], builtBy: after.map((w) => w.text).join(" ") };
    if (PROGRAM.test(programName(first, h)) || /^\/(usr\/)?s?bin\//.test(first.text)) return null;
  }
  const ref = run.image ? (run.image.resolved ?? run.image.text) : "";
  // an image the operator is to fill in (`REPLACE_WITH_SGLANG_IMAGE`, `${IMG:-sglang-placeholder}`) runs nothing yet;
  // a known engine image whose tag is to be filled in (`vllm/vllm-openai:REPLACE_WITH_TESTED_VERSION`) is that engine
  if (PLACEHOLDER_IMAGE.test(ref.replace(/:[^/]*$/, ""))) return null;
  // an engine named only in the tag (tritonserver:26.02-vllm-python-py3) with a program as the command: that
  // program runs (Triton with its vLLM backend), not the engine's own server
  const untagged = ref.replace(/@sha256:.*$/, "").replace(/:[^/]*$/, "");
  const tagOnly = imageEngine(ref) !== null && imageEngine(untagged) === null;
  if (first && /^[A-Za-z][\w.-]*$/.test(first.text) && tagOnly) return null;
  // an application image tagged for its backend (`dsocr-server:vllm`) with no argv: its own entrypoint is unknown
  if (tagOnly && after.length === 0) return null;
  // llama-swap's image runs a router that spawns llama-server per request from its config: no engine of its own
  if (ROUTER_IMAGE.test(untagged)) return null;
  // `docker run -it IMAGE` with no argv, of a local build given no GPU and no published port: a shell in a dev image
  // the team works in (its default command), not a server
  if (after.length === 0 && interactiveShell(run, untagged)) return null;
  const kind = ref ? imageEngine(ref) : null;
  // llama.cpp's `full` images run its tools.sh, which starts llama-server only for `--server`/`-s` (then the rest is
  // llama-server's argv); any other first word runs another tool or prints "Unknown command" (.devops/tools.sh)
  if (kind === "llama.cpp" && /:full(-|$)/.test(ref.replace(/@sha256:.*$/, "")))
    return first && (first.text === "--server" || first.text === "-s") ? { kind, args: after.slice(1) } : null;
  if (kind) return { kind, args: [...after] };
  // an application image (a UI, a router, a simulator) taking engine-like flags is still no engine
  if (
    APP_WORDS.test(
      ref
        .replace(/[@:][^/]*$/, "")
        .split("/")
        .at(-1) ?? "",
    )
  )
    return null;
  if (OTHER_SERVERS.test(ref.replace(/[@:][^/]*$/, ""))) return null;
  // An unknown image (a custom build, an engine double) starts an engine when its argv reads like one:
  // vLLM's own flags, or a model path first (`img /models/qwen --port 7770`), never a program (`redis-server ...`).
  // `aiperf profile --model m --url ...`: a program and its subcommand (a benchmark, a client), not an engine's argv
  const bare = (w: Word | undefined) => w !== undefined && /^[A-Za-z][\w.-]*$/.test(w.text);
  if (first && first.text !== "serve" && bare(first) && bare(after[1])) return null;
  // `postgres -c max_connections=150`: a program of its own name first, whatever its flags look like (`-c` is
  // llama-server's context size and postgres's setting)
  if (first && bare(first) && !/serve|vllm|sglang|llama|python|^-/i.test(first.text)) return null;
  // llama.cpp's other programs (`/app/llama-bench -m x.gguf -p 512`): a benchmark or a CLI, not the server
  if (first && /(^|\/)llama-(?!server$)[\w-]+$/.test(first.text)) return null;
  const flags = readFlags(after).flags;
  const llamaish = flags.some((f) => LLAMA_TYPICAL.has(f.name)) || flags.some((f) => /\.gguf\b/i.test(f.value ?? ""));
  if (llamaish) return { kind: "llama.cpp", args: [...after] };
  // a Kubernetes controller (`/manager --health-probe-bind-address=:8081 --leader-elect`, controller-runtime's own
  // flags) is no engine, whatever path comes first
  if (flags.some((f) => /-bind-address$|^--leader-elect|^--kubeconfig$|^--zap-/.test(f.name))) return null;
  const vllmish = flags.some((f) => VLLM_TYPICAL.has(f.name.replace(/_/g, "-")));
  // `serve` alone is many programs' subcommand (ntfy, ollama): vLLM's needs a model after it
  // (a script or program path, `/cron.sh` or `/usr/local/bin/meshd`, is what the image runs, not a model)
  const modelLike = (w: Word | undefined) =>
    w !== undefined &&
    w.text.includes("/") &&
    !/\s/.test(w.text) &&
    !isFlagWord(w.text) &&
    !/\.(sh|bash|py|pl|rb|js)$/.test(w.text) &&
    !/(^|\/)s?bin\/[^/]+$/.test(w.text);
  const modelFirst = first !== undefined && (first.text === "serve" ? modelLike(after[1]) : modelLike(first));
  return vllmish || modelFirst ? { kind: "vllm", args: [...after] } : null;
}
