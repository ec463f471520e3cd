// Failure signatures of a vLLM boot (seed 000 §2, reference §1.4), ranked: a root cause outranks the
// RPC echo of it, which outranks a generic exception, which outranks the wrappers around all of them.

export type FailureKind = "oom" | "dynamo-shape" | "kv-insufficient" | "engine-init-failed" | "engine-args";

export interface FailureMatch {
  kind: FailureKind;
  /** 5 root cause … 1 wrapper (2.5: a worker's death with no exception of its own). */
  priority: number;
}

/** "no GPU available" in every wording torch/vLLM/HIP used. */
export const NO_GPU =
  /No (?:CUDA|HIP) GPUs are available|Failed to infer device type|Found no NVIDIA driver on your system|CUDA driver initialization failed|no CUDA-capable device is detected|hipErrorNoDevice|No HIP GPUs|torch\.cuda\.is_available\(\) (?:is|returned) False/;
/** A model whose architecture this vLLM does not know (pydantic's `Value error,` line, or older vLLM's ValueError). */
export const ARCH_UNSUPPORTED = /Model architectures? \[[^\]]*\] (?:are|is) not supported/;
/** The kernel's OOM killer (host RAM or the unit's MemoryMax=), and systemd's word for it. */
export const HOST_OOM =
  /(?:Memory cgroup out of memory|Out of memory): Killed process|has been killed by the OOM killer|Failed with result 'oom-kill'|^\s*Active: failed \(Result: oom-kill\)/;
/** The hub is offline and the model is not in the cache: the cause under vLLM's `Invalid repository ID`. */
export const HF_OFFLINE = /LocalEntryNotFoundError|outgoing traffic has been disabled/;
/** The GPU itself failed while the engine ran (torch's and ggml's CUDA/HIP errors, the driver's Xid), not memory. */
export const GPU_FAULT =
  /(?:CUDA|HIP) error: (?!out of memory)(?:an illegal memory access|device-side assert|unspecified launch failure|misaligned address|an illegal instruction|uncorrectable ECC|the launch timed out)|GGML_ASSERT\(.*\) failed|NVRM: Xid \([^)]*\): (?:13|31|43|48|63|64|74|79|92|94|95)\b|GPU has fallen off the bus/;
/** A kernel or dtype this GPU does not have (triton's fp8 on pre-Ada GPUs, …): the flag asking for it is the fix. */
export const GPU_UNSUPPORTED = /type fp8e4nv not supported in this architecture|fp8e4nv not supported/;
/**
 * The engine's Python environment or binary is not what runs (a bare-metal or venv install): a module the
 * interpreter cannot import, a shared library the loader cannot find, a compiled extension built against
 * another torch, uv finding no such command.
 */
export const INSTALL =
  /No module named '(?:vllm|sglang|torch|sgl_kernel|flashinfer|vllm\._C)\b[\w.]*'|error while loading shared libraries: \S+: cannot open shared object file|undefined symbol: \S+|Failed to spawn: `[^`]+`/;
/**
 * NCCL's own WARN lines that name a cause (bootstrap.cc "Bootstrap : no socket interface found", net_socket.cc
 * "NET/Socket : no interface found", socket.cc's failed connects): they come before torch's wrapper exception and say
 * more (shmutils.cc "Error while creating shared memory segment %s": /dev/shm too small, before
 * ncclSystemError); torch repeats the last one under its exception (`[rank0]: Bootstrap : no socket interface
 * found`). A WARN about an optional plugin (`NET/Plugin: Could not find: libnccl-net.so`) is no failure.
 */
export const NCCL_CAUSE =
  /NCCL WARN (?:.*no (?:socket )?interface found|Bootstrap ?: ?.*(?:fail|error|timeout|abort|refused)|.*socketStartConnect.*failed|.*Connect to \S+ failed|.*(?:Call to \w+ failed|unhandled system error)|Error while (?:creating|attaching to) shared memory segment)|(?:^|\]: )(?:Bootstrap|NET\/Socket) ?: ?no (?:socket )?interface found/;
/**
 * Two GPUs that cannot reach each other's memory (CUDA's cudaErrorPeerAccessUnsupported string): NCCL's P2P/IPC
 * transport (`NCCL WARN failed to open CUDA IPC handle : 217 peer access …`), vLLM's and SGLang's custom all-reduce
 * (its CUDACHECK: `Failed: Cuda error FILE:LINE 'peer access …'`), torch's `CUDA error: peer access …`. A fact of the
 * machine's topology set up before any rank works: never a consequence, so above torch's NCCL wrapper before it.
 */
export const PEER_ACCESS = /peer access is not supported between these two devices/;
/** The custom all-reduce kernel's own CUDA check (csrc/custom_all_reduce.cuh): prints this and exits the worker. */
const CUSTOM_AR_CHECK = /^Failed: Cuda error \S+:\d+ '/;
/**
 * Ray's object store asks for more shared memory than /dev/shm holds (store_runner.cc, a warning: the workers fail
 * after it): a container without --shm-size or --ipc=host. Ranked as a worker's failure (4), not a root cause.
 */
export const RAY_SHM = /System memory request exceeds memory available in \/dev\/shm/;
/** NCCL and torch.distributed failures (rendezvous, collectives, watchdog). */
export const NCCL = new RegExp(
  `${NCCL_CAUSE.source}|NCCL error|nccl(?:Internal|System|UnhandledCuda|InvalidUsage|Remote)Error|DistBackendError|Watchdog caught collective operation timeout|ProcessGroupNCCL.*(?:timed? ?out|abort)|(?:store->get|TCPStore).*(?:Connection reset|timed out|refused)|DistNetworkError`,
);
export const CHAT_TEMPLATE =
  /chat_template is not set|default chat template is no longer allowed|jinja2\.exceptions\.\w+|TemplateSyntaxError|UndefinedError: |(?:Error|error) (?:in applying|applying|rendering) (?:the )?chat template|chat template (?:file|path) .*(?:not found|does not exist|invalid)/;
export const PARSER =
  /invalid (?:tool call|reasoning) parser: |(?:Tool|Reasoning) parser '?[\w-]+'? (?:is )?not (?:found|registered|supported)|(?:tool[-_ ]call[-_ ]parser|reasoning[-_ ]parser): invalid choice|Error in extracting tool call|Error trying to handle streaming tool call/;

const ROOT_CAUSES: ReadonlyArray<readonly [RegExp, FailureKind]> = [
  [
    /(?:CUDA|HIP) out of memory\. Tried to allocate|OutOfMemoryError|out of memory occurred when warming up sampler|Failed to load model - not enough GPU memory|(?:CUDA|HIP) error: out of memory/,
    "oom",
  ],
  [/Constraints violated \(/, "dynamo-shape"],
  [
    /To serve at least one request with the models?'?s max seq len|No available memory for the cache blocks|is larger than the maximum number of tokens that can be stored in KV cache/,
    "kv-insufficient",
  ],
  // the startup budget check (V1): `Free memory on device (6.9/8.0 GiB) on startup is less than desired GPU memory
  // utilization (0.9, 7.2 GiB)`
  // (2026: the device named, `Free memory on device cuda:0 (0.88/23.56 GiB) …`)
  [/Free memory on device [^(]{0,40}\(.*\) on startup is less than desired GPU memory utilization/, "oom"],
  [NO_GPU, "engine-init-failed"],
  [ARCH_UNSUPPORTED, "engine-init-failed"],
  [HOST_OOM, "oom"],
  [GPU_FAULT, "engine-init-failed"],
  [GPU_UNSUPPORTED, "engine-init-failed"],
  [HF_OFFLINE, "engine-init-failed"],
  [INSTALL, "engine-init-failed"],
  [NCCL, "engine-init-failed"],
  [CUSTOM_AR_CHECK, "engine-init-failed"],
  // launch choices the engine rejects or that fail on the first request: the chat template and the parsers
  [CHAT_TEMPLATE, "engine-args"],
  [PARSER, "engine-args"],
];

/** Lines that only say "see above": never the decisive line while anything else is known. */
// `Executor failed.` is EngineCore's word for a worker that died: the worker's own line says which
export const WRAPPER =
  /Engine core initialization failed|Engine process failed to start|EngineDeadError|WorkerProc initialization failed|Frontend process failed during engine core initialization|died unexpectedly, shutting down client|Executor failed\./;
// a worker that died with no traceback of its own (a native crash) is the cause, above every wrapper
export const WORKER_DIED = /Worker proc \S+ died unexpectedly/;
const ENGINE_FATAL =
  /EngineCore failed to start|EngineCore encountered a fatal error|EngineCore hit an exception|WorkerProc hit an exception|WorkerProc failed(?: to start)?\.|Application startup failed/;
const WORKER_FAILED = /Worker failed with error/;
// `Exception: …` bare too (a Rust tokenizer's error reaches Python as one)
const EXCEPTION = /^(?:[A-Za-z_][\w.]*\.)?(?:[A-Z]\w*Error|(?:[A-Z]\w*)?Exception)(?::|$)/;

/**
 * NCCL finding no interface to bootstrap on is set up before any rank talks: never a consequence of another failure,
 * so it outranks torch's wrapper (DistBackendError "internal error") printed before it.
 */
const NCCL_SETUP = /no (?:socket )?interface found/;

export function failureOf(msg: string, level: string | null): FailureMatch | null {
  if (level === "DEBUG" || level === "INFO" || level === "WARNING") return null;
  if ((NCCL_SETUP.test(msg) && NCCL_CAUSE.test(msg)) || PEER_ACCESS.test(msg))
    return { kind: "engine-init-failed", priority: 5.5 };
  for (const [re, kind] of ROOT_CAUSES) if (re.test(msg)) return { kind, priority: 5 };
  if (WORKER_FAILED.test(msg)) return { kind: "engine-init-failed", priority: 4 };
  // a warning the workers die after: above their exceptions, below a root cause logged later
  if (RAY_SHM.test(msg)) return { kind: "engine-init-failed", priority: 4 };
  if (WRAPPER.test(msg)) return { kind: "engine-init-failed", priority: 1 };
  // a worker dead without an exception of its own (a native crash): above EngineCore's fatal lines that
  // follow it (2), below any exception (3), which would be the worker's own cause
  if (WORKER_DIED.test(msg)) return { kind: "engine-init-failed", priority: 2.5 };
  if (ENGINE_FATAL.test(msg)) return { kind: "engine-init-failed", priority: 2 };
  if (EXCEPTION.test(msg.trim())) return { kind: "engine-init-failed", priority: 3 };
  return null;
}

/** A root cause is taken at its first sighting (later ones are echoes); a generic line at its last. */
export function outranks(next: Pick<FailureMatch, "priority">, held: Pick<FailureMatch, "priority"> | null): boolean {
  if (!held) return true;
  if (next.priority !== held.priority) return next.priority > held.priority;
  return next.priority < 5;
}
