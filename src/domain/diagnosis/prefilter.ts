// One scan per line for the literals the diagnosis's patterns need (Aho-Corasick over the line's characters,
// case folded), so a line runs only the pattern groups whose literals it holds: most lines of a long log hold none.
// Every group lists, for each of its patterns, a literal that any text the pattern matches contains (lower case):
// a line without them cannot match, so skipping it changes no diagnosis (test/domain/diagnosis/prefilter.test.ts
// diagnoses every fixture both ways). A literal too wide only costs time. Pure.

export const NOISE = 1 << 0;
export const PLAN = 1 << 1;
export const PHASE = 1 << 2;
export const READY = 1 << 3;
export const BELOW = 1 << 4;
export const FAIL = 1 << 5;
export const KUBE = 1 << 6;
export const TRACEBACK = 1 << 7;
export const SERVING = 1 << 8;
/** What pushLine reads outside the groups: its literal gates, the level words that keep a line, a recovered OOM. */
export const MISC = 1 << 9;
/** Not a group: the line holds an ESC or a CR, so cleanLine changes it (the same scan says so). */
export const DIRTY = 1 << 10;
/** Every group: what a line gets when the prefilter is off. */
export const ALL = (1 << 10) - 1;
/**
 * Not a group either: the line holds `.service` (case folded), so it may be a unit event (unitEventOf's own first
 * test); the same scan answers what a second pass over the line with `includes` did.
 */
export const SERVICE = 1 << 11;
/**
 * A group pushLine reads without gating on it: `metrics: ` (the spec-decode metrics line, newest one read at the end).
 * A line holding it and no other literal is kept like a quiet line, its text read only if it is the newest.
 */
export const SPEC = 1 << 12;

const GROUPS: ReadonlyArray<readonly [number, readonly string[]]> = [
  // below-engine.ts NOISE
  [
    NOISE,
    [
      "forwarding signal",
      "no container with",
      "no such container",
      "resource_tracker",
      "leaked ",
      "exception ignored in",
      "keyboardinterrupt",
      "cancellederror",
      "shutting down",
      "waiting for application shutdown",
      "application shutdown complete",
      "finished server process",
      "terminated",
      "see '",
      "command not found",
    ],
  ],
  // the plan rules (vllm/plan.ts, peer-plan.ts) and the compile-cache counters: narrower than plan.ts's keywords, so
  // vLLM's stats line (`GPU KV cache usage: 3.1%`) is not one
  [
    PLAN,
    [
      "loading weights took",
      "model weights take",
      "reserved for kv cache is",
      "cpu blocks",
      "gpu kv cache size",
      "available kv cache memory",
      "memory for kv cache",
      "stored in kv cache",
      "kv cache is allocated",
      "concurrency",
      "gpu blocks",
      "model loading",
      "model weights",
      "graph capturing",
      "cuda graph memory",
      "torch.compile",
      "auto-fit",
      "model len",
      "model_len",
      "num_gpu_blocks",
      "max seq len",
      "estimated maximum model length",
      "compiling a graph",
      "directly load",
      "max_total_num_tokens",
      "load weight end",
      "capture cuda graph end",
      "n_ctx",
      "llama_kv_cache",
      "kv self size",
      "max context",
    ],
  ],
  // vllm/phase.ts PHASES
  [
    PHASE,
    [
      "application startup complete",
      "starting vllm",
      "available routes are",
      "route: ",
      "started server process",
      "waiting for application startup",
      "init engine (profile",
      "supported_tasks",
      "supported tasks",
      "cuda graph",
      "graph capturing finished",
      "compiling a graph",
      "dynamo bytecode transform",
      "torch.compile t",
      "directly load",
      "cache the graph",
      "saved aot compiled",
      "memory profiling takes",
      "available kv cache memory",
      "llama_kv_cache",
      "kv cache is allocated",
      "gpu kv cache size",
      "gpu blocks:",
      "maximum concurrency for",
      "profiling",
      "starting to load model",
      "loading safetensors checkpoint shards",
      "loading pt checkpoint shards",
      "loading weights",
      "loading model weights",
      "model loading took",
      "load_model",
      "using model weights format",
      "llama_model_loader: ",
      "load_tensors: ",
      "load weight begin",
    ],
  ],
  // vllm/phase.ts isReadyMarker, peers.ts isPeerReadyMarker
  [
    READY,
    [
      "application startup complete.",
      "starting vllm api server",
      "starting vllm server on",
      "server is listening on http",
      "model loaded",
      "all slots are idle",
    ],
  ],
  // below-engine.ts RULES and GENERIC_RUNTIME (a logrus line's message is a part of it, so its literals are in it)
  [
    BELOW,
    [
      "statfs",
      "bind source path does not exist",
      "stat /dev/",
      "adding custom device",
      "unresolvable cdi devices",
      "could not select device driver",
      "initializing source docker://",
      "short-name",
      "image not known",
      "reading manifest",
      "pull access denied",
      "manifest unknown",
      "cannot listen on the",
      "rootlessport listen",
      "pasta failed",
      "bind for",
      "failed to bind host port",
      "flag: ",
      "invalid argument",
      "unknown argument",
      "already in use",
      "nvidia-container-cli: ",
      "xec format error",
      "executable file",
      "crun",
      "runc",
      "oci permission denied",
      "oci runtime",
      "failed to locate executable",
      "failed to execute",
      "failed to load environment files",
      "operation timed out",
      "failed to determine user credentials",
      "failed at step",
      "main process exited",
      "code=exited",
      "unit ",
      "has no execstart",
      "bad unit file setting",
      "\\r",
      "^m",
      "cannot execute",
      "exit code",
      "exit status",
      ": line ",
      "error: ",
      "value error, ",
      "trust_remote_code",
      "error while handling",
      "bind http server socket",
      "error while attempting to bind",
      "error response from daemon: ",
    ],
  ],
  // engine/vllm/failures.ts (root causes, wrappers, the exception shape) and engine/peers.ts
  [
    FAIL,
    [
      "out of memory",
      "outofmemoryerror",
      "warming up sampler",
      "not enough gpu memory",
      "constraints violated (",
      "max seq len",
      "no available memory for the cache blocks",
      "stored in kv cache",
      "free memory on device",
      "no cuda gpus",
      "no hip gpus",
      "failed to infer device type",
      "no nvidia driver",
      "cuda driver initialization failed",
      "no cuda-capable device",
      "hiperrornodevice",
      "torch.cuda.is_available()",
      "not supported",
      "killed process",
      "killed by the oom killer",
      "oom-kill",
      "cuda error: ",
      "hip error: ",
      "ggml_assert(",
      "nvrm: xid",
      "fallen off the bus",
      "fp8e4nv not supported",
      "localentrynotfounderror",
      "outgoing traffic has been disabled",
      "no module named",
      "error while loading shared libraries",
      "undefined symbol: ",
      "failed to spawn: ",
      "interface found",
      "nccl",
      "distbackenderror",
      "watchdog caught collective operation timeout",
      "store->get",
      "tcpstore",
      "distnetworkerror",
      "peer access is not supported",
      "failed: cuda error ",
      "system memory request exceeds memory available in /dev/shm",
      "chat_template is not set",
      "default chat template",
      "jinja2.exceptions.",
      "templatesyntaxerror",
      "undefinederror: ",
      "chat template",
      "parser",
      "error in extracting tool call",
      "streaming tool call",
      "worker failed with error",
      "engine core initialization failed",
      "engine process failed to start",
      "enginedeaderror",
      "workerproc initialization failed",
      "frontend process failed during engine core initialization",
      "died unexpectedly",
      "executor failed.",
      "enginecore failed to start",
      "enginecore encountered a fatal error",
      "enginecore hit an exception",
      "workerproc hit an exception",
      "workerproc failed",
      "application startup failed",
      "error",
      "exception",
      // peers.ts
      "cudamalloc failed: out of memory",
      "to allocate",
      "_alloc_buffer: failed to allocate buffer of size",
      "gguf_init_from_file",
      "llama_model_load: error loading model: ",
      "error loading model: ",
      "not enough memory. please try to increase --mem-fraction-static",
      "than the profiled value -",
      "hit an exception",
      "received sigquit from a child process",
      "scheduler is dead",
      "initialization failed. warmup error",
      "exiting due to model loading error",
      "failed to load model",
      "failed to create context with model",
      "failed to initialize the context",
      "exception loading model",
    ],
  ],
  // kube.ts: the status words statusOf knows, and the event rows' type column
  [
    KUBE,
    [
      "oomkilled",
      "crashloopbackoff",
      "startcontainer",
      "error",
      "errimage",
      "imagepullbackoff",
      "invalidimagename",
      "containercannotrun",
      "evicted",
      "low on resource",
      "warning",
      "normal",
    ],
  ],
  // traceback.ts: what opens a traceback, or a `raise` line outside one
  [TRACEBACK, ["traceback (most recent call last):", "raise"]],
  // classify.ts SERVING
  [SERVING, ["http/1.", "log_server_r: request: ", "log_server_r: done request: "]],
  // classify.ts pushLine's own gates (banner, tool gap, dynamo constant, KV estimate, RECOVERED),
  // and the ERROR/CRITICAL levels of the prefix, which keep a line as evidence: a whole line without any literal is
  // only counted and kept in the tail (the spec-decode metrics literal is SPEC, below)
  [
    MISC,
    [
      "version",
      "starting to load model",
      "tool",
      "a constant (",
      "estimated maximum",
      "retrying without",
      "main pid: ",
      "error",
      "critical",
    ],
  ],
  [DIRTY, ["\x1b", "\r"]],
  [SERVICE, [".service"]],
  [SPEC, ["metrics: "]],
];

/** Every literal of every group (the line-by-line differential test splices them, whole and cut short, into lines). */
export const LITERALS: readonly string[] = GROUPS.flatMap(([, words]) => words);

/** Characters below this index have transitions; any other breaks every literal (they are ASCII). */
const SIGMA = 128;

interface Automaton {
  delta: Uint16Array;
  out: Int32Array;
}

function build(): Automaton {
  // This runs on every start of explain, so the loops are few: the trie in typed arrays (not a Map per state), and
  // each state's row copied whole from its failure state's (copyWithin, native) with its own edges laid over, instead
  // of 128 columns filled one by one (~4 ms for the whole table, against 15-25 ms column by column: cold code runs in
  // V8's interpreter).
  let most = 1;
  for (const [, words] of GROUPS) for (const w of words) most += w.length;
  // 16-bit states: the table stays small enough for the cache (the literals make a few thousand states)
  if (most > 0xffff) throw new Error("prefilter: too many literal states for a 16-bit table");
  const trie = new Uint16Array(most * SIGMA);
  const found = new Int32Array(most);
  const parent = new Int32Array(most);
  const char = new Int32Array(most);
  let n = 1;
  for (const [bit, words] of GROUPS) {
    for (const w of words) {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const c = w.charCodeAt(i);
        if (c >= SIGMA || (c >= 65 && c <= 90)) throw new Error(`prefilter literal must be lower-case ASCII: ${w}`);
        let t = trie[s * SIGMA + c]!;
        if (t === 0) {
          t = trie[s * SIGMA + c] = n++;
          parent[t] = s;
          char[t] = c;
        }
        s = t;
      }
      found[s]! |= bit;
    }
  }
  // each state's children, in one array (a state's own edges are laid over the row it copies)
  const first = new Int32Array(n + 1);
  for (let t = 1; t < n; t++) first[parent[t]! + 1]!++;
  for (let s = 0; s < n; s++) first[s + 1]! += first[s]!;
  const kids = new Int32Array(n);
  const fill = first.slice(0, n);
  for (let t = 1; t < n; t++) kids[fill[parent[t]!]!++] = t;
  const delta = new Uint16Array(n * SIGMA);
  const outs = found.slice(0, n);
  const fail = new Int32Array(n);
  // an upper-case letter moves as its lower-case one: case folding in the table (no branch per character)
  const edge = (s: number, c: number, t: number) => {
    delta[s * SIGMA + c] = t;
    if (c >= 97 && c <= 122) delta[s * SIGMA + c - 32] = t;
  };
  // breadth first, so a state's failure state (shallower) has its whole row when the state copies it
  const queue = new Int32Array(n);
  let tail = 0;
  for (let k = first[0]!; k < first[1]!; k++) {
    edge(0, char[kids[k]!]!, kids[k]!);
    queue[tail++] = kids[k]!;
  }
  for (let q = 0; q < tail; q++) {
    const s = queue[q]!;
    const f = fail[s]!;
    outs[s]! |= outs[f]!;
    delta.copyWithin(s * SIGMA, f * SIGMA, f * SIGMA + SIGMA);
    for (let k = first[s]!; k < first[s + 1]!; k++) {
      const t = kids[k]!;
      fail[t] = delta[f * SIGMA + char[t]!]!;
      edge(s, char[t]!, t);
      queue[tail++] = t;
    }
  }
  return { delta, out: outs };
}

const { delta, out } = build();

/** The groups whose literals `text` holds (case folded). */
export function groupsOf(text: string): number {
  let s = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= SIGMA) {
      s = 0;
      continue;
    }
    s = delta[(s << 7) | c]!;
    bits |= out[s]!;
  }
  return bits;
}
