// A realistic `journalctl -o json` dump of a given size: hours of a serving engine under an attached
// `podman run` (every line twice), coloured byte-array lines, partial and line-max pieces, request-error
// tracebacks split over 20+ records, then a new boot that dies of an OOM. Written with backpressure.
import { createWriteStream } from "node:fs";
import { once } from "node:events";

const CID = "3f1c9a7b2e4d";
const ESC = "\x1b";
const T0 = 1_795_000_000_000_000;

/** journald's rule: a control char other than TAB/LF makes the field a byte array. */
function message(text: string): string | number[] {
  return /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text) ? [...Buffer.from(text, "utf8")] : text;
}

class Writer {
  private seq = 0;
  private ts = T0;
  private buf: string[] = [];
  private size = 0;
  bytes = 0;
  records = 0;
  constructor(private readonly out: NodeJS.WritableStream) {}

  async rec(fields: Record<string, unknown>, text: string, step = 700): Promise<void> {
    this.ts += step;
    this.seq++;
    const line =
      JSON.stringify({
        __CURSOR: `s=9f2e;i=${this.seq.toString(16)};b=b00t;m=${this.ts.toString(16)}`,
        __REALTIME_TIMESTAMP: String(this.ts),
        __MONOTONIC_TIMESTAMP: String(this.ts - T0),
        _BOOT_ID: "6c0a4f",
        _HOSTNAME: "gpu1",
        ...fields,
        MESSAGE: message(text),
      }) + "\n";
    this.buf.push(line);
    this.size += line.length;
    this.bytes += Buffer.byteLength(line);
    this.records++;
    if (this.size > 1 << 20) await this.drain();
  }

  async drain(): Promise<void> {
    if (this.buf.length === 0) return;
    const ok = this.out.write(this.buf.join(""));
    this.buf = [];
    this.size = 0;
    if (!ok) await once(this.out, "drain");
  }

  conmon(text: string, partial = false, prio = "6") {
    const f: Record<string, unknown> = {
      CONTAINER_NAME: "frank-archon-qwen",
      CONTAINER_ID: CID,
      CONTAINER_ID_FULL: CID.padEnd(64, "8"),
      SYSLOG_IDENTIFIER: "frank-archon-qwen",
      _TRANSPORT: "journal",
      CODE_FILE: "src/ctr_logging.c",
      CODE_FUNC: "write_journald",
      PRIORITY: prio,
      _SYSTEMD_UNIT: "frank-archon.service",
    };
    if (partial) f.CONTAINER_PARTIAL_MESSAGE = "true";
    return this.rec(f, partial ? text : text + "\n", 300);
  }

  copy(text: string, lineMax = false) {
    const f: Record<string, unknown> = {
      SYSLOG_IDENTIFIER: "podman",
      _TRANSPORT: "stdout",
      _STREAM_ID: "5d1e",
      _SYSTEMD_UNIT: "frank-archon.service",
      _COMM: "podman",
      PRIORITY: "6",
    };
    if (lineMax) f._LINE_BREAK = "line-max";
    return this.rec(f, text, 200);
  }

  async both(text: string, prio = "6") {
    await this.conmon(text, false, prio);
    await this.copy(text);
  }

  systemd(text: string, step = 1500) {
    return this.rec(
      {
        SYSLOG_IDENTIFIER: "systemd",
        _TRANSPORT: "journal",
        _PID: "1",
        _SYSTEMD_UNIT: "init.scope",
        UNIT: "frank-archon.service",
        PRIORITY: "6",
      },
      text,
      step,
    );
  }
}

const worker = (msg: string, lvl = "INFO") =>
  `${ESC}[1;36m(VllmWorker rank=0 pid=810)${ESC}[0;0m ${lvl} 10-20 11:47:40 [gpu_model_runner.py:1850] ${msg}`;
const api = (msg: string, lvl = "INFO") => `(APIServer pid=1) ${lvl} 10-20 11:47:01 [metrics.py:96] ${msg}`;

async function steadyBlock(w: Writer, i: number): Promise<void> {
  await w.both(
    api(
      `Engine 000: Avg prompt throughput: ${(i % 97) + 0.5} tokens/s, Avg generation throughput: 26.8 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 3.1%, Prefix cache hit rate: 41.0%`,
    ),
  );
  await w.both(`(APIServer pid=1) INFO:     10.0.0.7:${40000 + (i % 20000)} - "GET /health HTTP/1.1" 200 OK`);
  await w.both(
    `(APIServer pid=1) INFO:     10.0.0.9:${30000 + (i % 20000)} - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
  );
  await w.both(
    api(
      "SpecDecoding metrics: Mean acceptance length: 2.41, Accepted throughput: 19.62 tokens/s, Drafted throughput: 42.10 tokens/s, Accepted: 196 tokens, Drafted: 421 tokens, Per-position acceptance rate: 0.760, 0.550, 0.330, Avg Draft acceptance rate: 46.6%",
    ),
  );
  await w.both(worker(`expert cache: hit rate 82.${i % 10}%, gathered ${i % 4096} slabs\r`));
  // a long request log: conmon splits it, journald cuts the stdout copy
  const long = api(
    `Received request chatcmpl-${i.toString(16)}: prompt: '${"word ".repeat(120)}', params: SamplingParams(n=1, temperature=0.7, max_tokens=512)`,
  );
  await w.conmon(long.slice(0, 300), true);
  await w.copy(long.slice(0, 400), true);
  await w.conmon(long.slice(300));
  await w.copy(long.slice(400));
  if (i % 400 === 0) await requestErrorTraceback(w);
}

/** A request error logged with logger.exception: 22 records, every continuation ends in \r. */
async function requestErrorTraceback(w: Writer): Promise<void> {
  const lines = ["Error in preprocessing prompt inputs", "Traceback (most recent call last):"];
  for (let f = 0; f < 9; f++)
    lines.push(
      `  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line ${200 + f}, in create_chat_completion`,
      `    result = await self._preprocess_chat(request, tokenizer, messages${f})`,
    );
  lines.push(
    "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    "ValueError: This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.",
  );
  for (let k = 0; k < lines.length; k++) {
    await w.both(api(lines[k]! + (k < lines.length - 1 ? "\r" : ""), "ERROR"), "3");
  }
}

async function failingBoot(w: Writer): Promise<void> {
  await w.systemd("Stopping frank-archon.service - Frank Archon (vLLM)...");
  await w.systemd("frank-archon.service: Deactivated successfully.");
  await w.systemd("Started frank-archon.service - Frank Archon (vLLM).", 30_000_000);
  await w.both("(APIServer pid=1) INFO 10-20 12:00:01 [api_server.py:1805] vLLM API server version 0.10.1.1");
  await w.both(worker("Model loading took 15.2 GiB and 32.512000 seconds"));
  await w.both(
    "(EngineCore_DP0 pid=703) INFO 10-20 12:01:30 [kv_cache_utils.py:1013] GPU KV cache size: 23,296 tokens, Maximum concurrency for 4,096 tokens per request: 5.69x",
  );
  const tb = ["WorkerProc hit an exception.", "Traceback (most recent call last):"];
  for (let f = 0; f < 10; f++)
    tb.push(
      `  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line ${3000 + f}, in capture_model`,
      "    self._capture_cudagraphs(",
    );
  for (const t of tb) await w.both(worker(t + "\r", "ERROR"), "3");
  const oom = worker(
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free. Including non-PyTorch memory, this process has 30.72 GiB memory in use.",
    "ERROR",
  );
  await w.conmon(oom.slice(0, 120), true, "3");
  await w.copy(oom.slice(0, 160), true);
  await w.conmon(oom.slice(120), false, "3");
  await w.copy(oom.slice(160));
  await w.both(
    "(EngineCore_DP0 pid=703) ERROR 10-20 12:02:00 [core.py:708] RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free.', please check the stack trace above for the root cause",
    "3",
  );
  await w.both(
    "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
    "3",
  );
  await w.systemd("frank-archon.service: Deactivated successfully.", 2_000_000);
}

export async function generateJournalDump(
  path: string,
  targetBytes: number,
): Promise<{ bytes: number; records: number }> {
  const out = createWriteStream(path);
  const w = new Writer(out);
  await w.systemd("Started frank-archon.service - Frank Archon (vLLM).");
  await w.both("(APIServer pid=1) INFO:     Application startup complete.");
  for (let i = 0; w.bytes < targetBytes - 64 * 1024; i++) await steadyBlock(w, i);
  await failingBoot(w);
  await w.drain();
  out.end();
  await once(out, "finish");
  return { bytes: w.bytes, records: w.records };
}
