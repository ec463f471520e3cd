import { describe, expect, it } from "vitest";
import { decodeJournal, JournalDecoder, messageBytes } from "../../../src/domain/journal/decoder.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";

const rec = (fields: Record<string, unknown>, i: number) =>
  JSON.stringify({ __CURSOR: `c${i}`, __REALTIME_TIMESTAMP: String(1_000_000 + i), ...fields });

describe("messageBytes", () => {
  it("decodes strings, byte arrays, multi-valued fields and null", () => {
    expect(messageBytes("héllo")?.toString()).toBe("héllo");
    expect(messageBytes([0x1b, 0x5b, 0x30, 0x6d, 0x41])?.toString()).toBe("\x1b[0mA");
    expect(messageBytes(["old", "new"])?.toString()).toBe("new");
    expect(messageBytes(null)).toBeNull();
  });
});

describe("decodeJournal on a TP=2 OOM dump from an attached podman run", () => {
  const { records, stats } = decodeJournal(fixture("oom-tp2.journal.json"));
  const texts = records.map((r) => r.text);

  it("keeps one copy of every podman line and the container's identity on it", () => {
    const banner = records.filter((r) => r.text.includes("vLLM API server version 0.10.1.1"));
    expect(banner).toHaveLength(1);
    expect(banner[0]).toMatchObject({
      container: "frank-archon-qwen",
      identifier: "frank-archon-qwen",
      priority: 6,
      ts: 1795000000001800,
    });
    expect(stats.podmanDuplicates).toBeGreaterThan(30);
  });

  it("joins conmon's partial pieces and journald's line-max cut into one OOM line, once", () => {
    const oom = texts.filter((t) => t.includes("torch.OutOfMemoryError"));
    expect(oom).toHaveLength(1);
    expect(oom[0]).toMatch(
      /^\(VllmWorker rank=0 pid=810\) ERROR .*Tried to allocate 2\.50 GiB\. GPU 0 has a total capacity of 31\.86 GiB of which 1\.12 GiB is free\..*avoid fragmentation\.$/,
    );
    expect(stats.joinedPieces).toBe(3);
  });

  it("strips ANSI and the \\r of NewLineFormatter continuations in byte-array messages", () => {
    const tb = texts.filter((t) => t.includes("multiproc_executor.py:596"));
    expect(tb.length).toBeGreaterThanOrEqual(20);
    expect(tb.every((t) => !t.includes("\r") && !t.includes("\x1b"))).toBe(true);
    expect(tb[1]).toBe(
      "(VllmWorker rank=0 pid=810) ERROR 10-20 11:47:40 [multiproc_executor.py:596] Traceback (most recent call last):",
    );
  });

  it("keeps the last tqdm rewrite and decodes invalid UTF-8 lossily", () => {
    const bar = texts.filter((t) => t.includes("checkpoint shards"));
    expect(bar).toEqual(["Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:31<00:00,  7.9s/it] \uFFFD"]);
  });

  it("drops a repeated cursor, a null MESSAGE and the cut last line", () => {
    expect(stats).toMatchObject({ cursorDuplicates: 1, truncatedNull: 1, malformed: 1 });
    expect(texts.filter((t) => t.includes("Engine core initialization failed"))).toHaveLength(1);
  });

  it("keeps systemd's lines with the unit they are about", () => {
    const sd = records.filter((r) => r.identifier === "systemd").map((r) => [r.unit, r.text]);
    expect(sd[0]).toEqual(["frank-archon.service", "Started frank-archon.service - Frank Archon (vLLM)."]);
    expect(sd).toContainEqual(["frank-archon.service", "frank-archon.service: Deactivated successfully."]);
  });
});

describe("JournalDecoder streaming", () => {
  it("never pairs two copies from the same source: repeated log lines stay", () => {
    const d = new JournalDecoder();
    const line = {
      MESSAGE: 'INFO:     127.0.0.1:1 - "GET /health HTTP/1.1" 200 OK\n',
      CONTAINER_NAME: "c",
      CONTAINER_ID: "abc",
      _TRANSPORT: "journal",
    };
    const out = [...d.push(rec(line, 1)), ...d.push(rec(line, 2)), ...d.flush()];
    expect(out).toHaveLength(2);
  });

  it("pairs a stdout copy that arrives before conmon's record and keeps the first position", () => {
    const d = new JournalDecoder();
    const out = [
      ...d.push(rec({ MESSAGE: "hello", _TRANSPORT: "stdout", SYSLOG_IDENTIFIER: "podman", _STREAM_ID: "s" }, 1)),
      ...d.push(rec({ MESSAGE: "other", _TRANSPORT: "journal", SYSLOG_IDENTIFIER: "sshd" }, 2)),
      ...d.push(rec({ MESSAGE: "hello\n", CONTAINER_NAME: "c", CONTAINER_ID: "abc", _TRANSPORT: "journal" }, 3)),
      ...d.flush(),
    ];
    expect(out.map((r) => [r.text, r.container])).toEqual([
      ["hello", "c"],
      ["other", null],
    ]);
  });

  it("holds back at most a bounded window: memory stays flat on a long stream", () => {
    const d = new JournalDecoder();
    let emitted = 0;
    for (let i = 0; i < 5000; i++)
      emitted += d.push(rec({ MESSAGE: `line ${i}\n`, CONTAINER_NAME: "c", CONTAINER_ID: "abc" }, i)).length;
    expect(5000 - emitted).toBeLessThanOrEqual(256);
    expect(emitted + d.flush().length).toBe(5000);
  });

  it("splits a message carrying several lines into records", () => {
    const { records } = decodeJournal(rec({ MESSAGE: "a\nb\n", _TRANSPORT: "journal" }, 1));
    expect(records.map((r) => r.text)).toEqual(["a", "b"]);
  });
});

describe("JournalDecoder.pushBytes on a line that never ends", () => {
  it("passes it on as malformed pieces of at most 4 MiB instead of holding it, and keeps decoding after it", () => {
    const d = new JournalDecoder();
    const chunk = Buffer.alloc(256 << 10, 0x78); // "x"
    d.pushBytes(Buffer.from('{"__REALTIME_TIMESTAMP":"1","MESSAGE":"'));
    const seen: number[] = [];
    for (let i = 0; i < 48; i++) {
      // 12 MiB, no newline
      d.pushBytes(chunk);
      seen.push(d.stats.malformed);
    }
    // the first piece goes once more than 4 MiB is held, then one every 4 MiB or so
    expect(seen.indexOf(1)).toBeGreaterThanOrEqual(15);
    expect(seen.indexOf(1)).toBeLessThanOrEqual(16);
    expect(d.stats.malformed).toBe(2);
    const out = d.pushBytes(Buffer.from('"}\n{"__REALTIME_TIMESTAMP":"2","MESSAGE":"after"}\n'));
    out.push(...d.flush());
    expect(d.stats.malformed).toBe(3);
    expect(out.map((r) => r.text)).toEqual(["after"]);
  });
});
