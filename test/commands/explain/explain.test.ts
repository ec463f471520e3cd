import { gzipSync } from "node:zlib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJournalDump } from "../../../bench/journal/generate.js";
import { detectKind, explain, explainBytes, explainStream } from "../../../src/commands/explain/sniff.js";
import { lineBatches } from "../../../src/domain/journal/lines.js";
import { fixture, fixturePath } from "../../fixtures/journal/classes/fixture.js";
import { fileChunks } from "../../../src/commands/explain/explain.js";

const KEYS = ["schema", "class", "decisive", "plan", "oom", "specDecode", "summary", "fix", "evidence"].sort();
const PLAN_KEYS = [
  "kvTokens",
  "maxModelLen",
  "maxConcurrency",
  "gpuBlocks",
  "availableKvGiB",
  "modelLoadGiB",
  "modelLoadSeconds",
  "graphGiB",
  "graphSeconds",
  "estimatedGraphGiB",
  "compileSeconds",
].sort();

describe("explain: every fixture, every class", () => {
  it.each([
    ["oom-tp2.journal.json", "oom", /^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 2\.50 GiB/],
    ["crash-loop.journal.json", "crash-loop", /^frank-archon\.service: Start request repeated too quickly\.$/],
    [
      "v0-2024-kv-insufficient.log",
      "kv-insufficient",
      /^ValueError: The model's max seq len \(131072\) is larger than the maximum number of tokens that can be stored in KV cache \(22816\)/,
    ],
    ["v1-2025-kv-valueerror.log", "kv-insufficient", /^ValueError: To serve at least one request/],
    ["v1-2025-ready-two-line-kv.log", "ready", /Application startup complete/],
    ["v1-2026-merged-kv-ready.log", "ready", /Application startup complete/],
    [
      "dynamo-shape.log",
      "dynamo-shape",
      /ConstraintViolationError: Constraints violated \(L\['query_start_loc'\]\.size\(\)\[0\]\)!/,
    ],
    ["torch20-oom.log", "oom", /^CUDA out of memory\. Tried to allocate 20\.00 MiB \(GPU 0; 23\.69 GiB total capacity/],
    ["torch21-capacty-oom.log", "oom", /total capacty of 79\.15 GiB of which 203\.81 MiB is free/],
    ["no-gpus.log", "engine-init-failed", /^RuntimeError: No CUDA GPUs are available$/],
    ["worker-tuple-error.log", "engine-init-failed", /Worker failed with error/],
    ["clean-exit.journal.txt", "clean-exit", /^frank-archon\.service: Deactivated successfully\.$/],
    ["container-removed.journal.txt", "container-removed", /status=0\/SUCCESS/],
    [
      "tools-400-v0101.json",
      "tools-not-enabled",
      /^"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set$/,
    ],
    ["tools-400-pre0101.json", "tools-not-enabled", /^"auto" tool choice requires/],
    ["tools-400-gateway.txt", "tools-not-enabled", /^"auto" tool choice requires/],
    ["llamacpp-jinja-500.json", "tools-not-enabled", /^tools param requires --jinja flag$/],
  ])("%s -> %s", (name, cls, decisive) => {
    const r = explain(fixture(name));
    expect(r.class).toBe(cls);
    expect(r.decisive).toMatch(decisive);
    expect(Object.keys(r).sort()).toEqual(KEYS);
    expect(Object.keys(r.plan).sort()).toEqual(PLAN_KEYS);
    expect(r.schema).toBe(1);
  });

  it("reads the plan and the OOM gap out of the journal dump", () => {
    const r = explain(fixture("oom-tp2.journal.json"));
    expect(r.oom).toEqual({ triedGiB: 2.5, freeGiB: 1.12, totalGiB: 31.86, shortfallGiB: 1.38 });
    expect(r.plan).toMatchObject({
      kvTokens: 23296,
      maxModelLen: 4096,
      maxConcurrency: 5.69,
      availableKvGiB: 6.51,
      modelLoadGiB: 15.2,
      modelLoadSeconds: 32.512,
      estimatedGraphGiB: 1.58,
    });
    // the fixture dies in capture_model(): the fix says graph capture, with the gap
    expect(r.fix).toMatch(
      /^Asked 2\.5 GiB with 1\.12 GiB free \(short 1\.38 GiB\): graph capture needs memory outside the KV pool: lower --gpu-memory-utilization/,
    );
    // evidence is the reassembled traceback, without skeleton and without the api key from the args line
    expect(r.evidence.some((e) => /File "/.test(e))).toBe(false);
    expect(JSON.stringify(r)).not.toContain("sk-live-abc123");
  });

  it("ignores another unit's start in the middle of the engine's failure", () => {
    const lines = fixture("oom-tp2.journal.json").split("\n");
    const foreign = JSON.stringify({
      __CURSOR: "x-1",
      __REALTIME_TIMESTAMP: "1795000000090000",
      MESSAGE: "Started logrotate.service - Rotate log files.",
      SYSLOG_IDENTIFIER: "systemd",
      UNIT: "logrotate.service",
      _TRANSPORT: "journal",
    });
    lines.splice(
      lines.findIndex((l) => l.includes("Worker failed with error")),
      0,
      foreign,
    );
    const r = explain(lines.join("\n"));
    expect(r.class).toBe("oom");
    expect(r.summary).not.toContain("crash loop");
    expect(r.decisive).toBe(explain(fixture("oom-tp2.journal.json")).decisive);
  });

  it("reads the crash loop's per-attempt durations from the JSON dump", () => {
    expect(explain(fixture("crash-loop.journal.json")).summary).toBe(
      "crash loop: 3 attempt(s) ended after 402s, 402s, 402s; systemd hit the start limit and gave up",
    );
  });

  it("reads spec decode from the newest log", () => {
    expect(explain(fixture("v1-2026-merged-kv-ready.log")).specDecode).toEqual({
      meanAcceptanceLength: 2.41,
      acceptanceRate: 0.466,
      perPosition: [0.76, 0.55, 0.33],
    });
  });
});

describe("explain on pasted `podman logs` text", () => {
  it("reads CRLF line ends (NewLineFormatter's \\r before every continuation) the same way", () => {
    const crlf = explain(fixture("dynamo-shape.log").replace(/\n/g, "\r\n"));
    expect(crlf.class).toBe("dynamo-shape");
    expect(crlf.decisive).toBe(explain(fixture("dynamo-shape.log")).decisive);
  });
});

describe("detectKind", () => {
  it("tells the three inputs apart", () => {
    expect(detectKind(fixture("oom-tp2.journal.json"))).toBe("journal-json");
    expect(detectKind(fixture("tools-400-gateway.txt"))).toBe("http-body");
    expect(detectKind(fixture("dynamo-shape.log"))).toBe("plain-log");
  });
});

describe("explainStream", () => {
  it("gives the same answer as explain for a journal file streamed from disk", async () => {
    const streamed = await explainStream(lineBatches(fileChunks(fixturePath("oom-tp2.journal.json"))));
    expect(streamed).toEqual(explain(fixture("oom-tp2.journal.json")));
  });

  it("streams plain logs and judges a small HTTP body whole", async () => {
    expect((await explainStream(lineBatches(fileChunks(fixturePath("dynamo-shape.log"))))).class).toBe("dynamo-shape");
    expect((await explainStream(lineBatches(fileChunks(fixturePath("tools-400-gateway.txt"))))).class).toBe(
      "tools-not-enabled",
    );
  });
});

/** The bytes of a text in chunks of `size`, so lines and UTF-8 characters are cut anywhere. */
async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe("explainBytes (what `explain FILE` runs)", () => {
  it.each([
    "oom-tp2.journal.json",
    "crash-loop.journal.json",
    "clean-exit.journal.txt",
    "dynamo-shape.log",
    "tools-400-gateway.txt",
    "tools-400-v0101.json",
    "no-gpus.log",
  ])("gives explain's answer for %s, whatever the chunk size", async (name) => {
    const text = fixture(name);
    const want = explain(text);
    for (const size of [1, 7, 4096, 1 << 20])
      expect(await explainBytes(chunksOf(text, size)), `chunks of ${size}`).toEqual(want);
  });

  it("judges a journal dump by its first non-empty line, after blank lines and a CRLF", async () => {
    const text = "\n  \r\n\n" + fixture("oom-tp2.journal.json");
    expect(detectKind(text)).toBe("journal-json");
    const r = await explainBytes(chunksOf(text, 5));
    expect(r).toEqual(explain(fixture("oom-tp2.journal.json")));
  });

  it("reads UTF-16 (PowerShell's > redirect, with its BOM) as the same log, cut anywhere", async () => {
    for (const name of ["no-gpus.log", "oom-tp2.journal.json"]) {
      const want = explain(fixture(name));
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fixture(name), "utf16le")]);
      const be = Buffer.from(le).swap16();
      for (const [form, bytes] of [
        ["LE", le],
        ["BE", be],
      ] as const) {
        for (const size of [3, 4096]) {
          const chunks = async function* () {
            for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
          };
          expect(await explainBytes(chunks()), `${name} UTF-16${form}, chunks of ${size}`).toEqual(want);
        }
      }
      expect(want.class).not.toBe("unknown");
    }
  });

  it("reads journal records across lines (journalctl -o json-pretty) or in a JSON array (jq -s) as the same dump", async () => {
    for (const name of ["oom-tp2.journal.json", "crash-loop.journal.json"]) {
      const records = fixture(name)
        .split("\n")
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as object];
          } catch {
            return [];
          }
        });
      const want = explain(records.map((r) => JSON.stringify(r)).join("\n"));
      expect(want.class).not.toBe("unknown");
      const forms = {
        pretty: records.map((r) => JSON.stringify(r, null, "\t").replace(/": /g, '" : ')).join("\n") + "\n",
        array: JSON.stringify(records),
        prettyArray: JSON.stringify(records, null, 2),
      };
      for (const [form, text] of Object.entries(forms)) {
        expect(explain(text), `${name} ${form}`).toEqual(want);
        for (const size of [5, 4096])
          expect(await explainBytes(chunksOf(text, size)), `${name} ${form}, chunks of ${size}`).toEqual(want);
      }
    }
  });

  it("still reads a pretty-printed response body as a body", async () => {
    const body =
      '{\n  "error": {\n    "message": "\\"auto\\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",\n    "type": "BadRequestError", "code": 400\n  }\n}\n';
    expect(explain(body).class).toBe("tools-not-enabled");
    expect((await explainBytes(chunksOf(body, 7))).class).toBe("tools-not-enabled");
  });

  it("says so when the input is empty or not text (a .gz), and never calls a coloured log binary", async () => {
    const once = async function* (b: Buffer) {
      yield b;
    };
    expect((await explainBytes(chunksOf("", 4))).summary).toBe("the input is empty");
    expect((await explainBytes(chunksOf(" \n\n", 4))).summary).toBe("the input is empty");
    // blank past the peek, then a log: not empty
    const late = "\n".repeat(1_500_000) + fixture("no-gpus.log");
    expect((await explainBytes(chunksOf(late, 1 << 18))).class).toBe(explain(fixture("no-gpus.log")).class);
    const gz = (await explainBytes(once(gzipSync(Buffer.from(fixture("no-gpus.log")))))).summary;
    expect(gz).toMatch(/^the input is not a text log \(\d+ control bytes/);
    const coloured = fixture("no-gpus.log")
      .split("\n")
      .map((l) => `\x1b[1;36m${l}\x1b[0m\r`)
      .join("\n");
    expect((await explainBytes(chunksOf(coloured, 4096))).class).toBe(explain(fixture("no-gpus.log")).class);
  });

  it("answers for empty and whitespace-only input", async () => {
    expect((await explainBytes(chunksOf("", 4))).class).toBe("unknown");
    expect((await explainBytes(chunksOf(" \n\n \n", 2))).class).toBe("unknown");
  });
});

describe("explainStream on a generated multi-megabyte dump", () => {
  it("finds the OOM of the last boot under request-error tracebacks, podman copies and partial pieces", async () => {
    const dir = mkdtempSync(join(tmpdir(), "explain-stream-"));
    try {
      const path = join(dir, "dump.json");
      const { bytes } = await generateJournalDump(path, 3 * 2 ** 20);
      expect(bytes).toBeGreaterThan(3 * 2 ** 20 - 64 * 1024);
      const r = await explainStream(lineBatches(fileChunks(path)));
      expect(await explainBytes(fileChunks(path))).toEqual(r);
      expect(r.class).toBe("oom");
      expect(r.decisive).toMatch(
        /^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 2\.50 GiB\..*30\.72 GiB memory in use\.$/,
      );
      expect(r.oom).toEqual({ triedGiB: 2.5, freeGiB: 1.12, totalGiB: 31.86, shortfallGiB: 1.38 });
      expect(r.plan.kvTokens).toBe(23296);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
