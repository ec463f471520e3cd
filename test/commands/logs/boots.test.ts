// Splitting an endpoint's journal into boots, choosing one, the remote command, and the printed shape.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../../src/domain/journal/record.js";
import { shellJoin } from "../../../src/lib/shell-quote.js";
import { BootSplitter, parseBoot } from "../../../src/commands/logs/boots.js";
import { diagnoseBoot, logsRequest } from "../../../src/commands/logs/logs.js";
import { logsArgv, sinceArg } from "../../../src/commands/logs/remote.js";
import { bootHeader, lineText, stamp } from "../../../src/commands/logs/render.js";

const SVC = "frank.service";
let t = 1_795_000_000_000_000;
const sys = (text: string, unit = SVC): LogRecord => ({
  ts: (t += 1000),
  text,
  priority: 6,
  container: null,
  unit,
  identifier: "systemd",
});
const eng = (text: string): LogRecord => ({
  ts: (t += 1000),
  text,
  priority: 6,
  container: "frank",
  unit: SVC,
  identifier: "frank",
});

/** Three boots: an OOM, a usage error, a healthy one; another unit's start in between is not a boot. */
function journal(): LogRecord[] {
  return [
    eng("(APIServer pid=1) INFO: tail of a boot the window cut"),
    sys(`Starting ${SVC} - Frank...`),
    sys(`Started ${SVC} - Frank.`),
    eng("(APIServer pid=1) INFO 11-30 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1.1"),
    eng(
      "(VllmWorker rank=0 pid=810) ERROR 11-30 10:01:00 [gpu_model_runner.py:3000] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free.",
    ),
    sys(`${SVC}: Main process exited, code=exited, status=1/FAILURE`),
    sys("Starting other.service - Other...", "other.service"),
    sys(`Started ${SVC} - Frank.`), // journald lost the Starting line: Started alone opens the boot
    eng("(APIServer pid=1) INFO 11-30 10:02:00 [api_server.py:1805] vLLM API server version 0.10.1.1"),
    sys(`Starting ${SVC} - Frank...`),
    sys(`Started ${SVC} - Frank.`),
    eng("(APIServer pid=1) INFO 11-30 10:03:00 [api_server.py:1805] vLLM API server version 0.10.1.1"),
    eng("(APIServer pid=1) INFO:     Application startup complete."),
  ];
}

function pick(sel: string) {
  const b = new BootSplitter(SVC, parseBoot(sel)!);
  for (const r of journal()) b.push(r);
  return { splitter: b, sel: b.selected() };
}

describe("boots", () => {
  it("splits at the unit's Starting line (or a lone Started), not another unit's", () => {
    const { splitter, sel } = pick("1");
    expect(splitter.total).toBe(4);
    expect(sel.boot?.records.map((r) => r.text)).toEqual(["(APIServer pid=1) INFO: tail of a boot the window cut"]);
  });

  it("current, previous, -N and N pick the right boot; the diagnosis is of that boot alone", () => {
    const cur = pick("current").sel;
    expect(cur.boot?.index).toBe(4);
    expect(diagnoseBoot(cur.boot!, SVC).class).toBe("ready");
    const two = pick("-2").sel;
    expect(two.boot?.index).toBe(2);
    expect(two.boot?.container).toBe("frank");
    expect(diagnoseBoot(two.boot!, SVC).class).toBe("oom");
    expect(pick("previous").sel.boot?.records.some((r) => r.text.includes("10:02:00"))).toBe(true);
    expect(pick("2").sel.boot?.index).toBe(2);
  });

  it("a boot the window does not hold says so and how to widen it", () => {
    const sel = pick("-7").sel;
    expect(sel.boot).toBeNull();
    expect(!sel.boot && sel.why).toMatch(/holds 4 boot\(s\).*--since/);
    expect(pick("9").sel.boot).toBeNull();
  });

  it("parses the selector and refuses anything else", () => {
    expect(parseBoot("0")).toEqual({ kind: "relative", offset: 0 });
    expect(parseBoot("-3")).toEqual({ kind: "relative", offset: -3 });
    for (const bad of ["last", "1.5", "-", "1;rm", ""]) expect(parseBoot(bad)).toBeNull();
  });
});

describe("the remote command", () => {
  it("passes --since only in forms journalctl takes, built from validated values", () => {
    expect(sinceArg("30m")).toBe("-1800s");
    expect(sinceArg("2h")).toBe("-7200s");
    expect(sinceArg("2026-11-30 17:00")).toBe("2026-11-30 17:00");
    expect(sinceArg("2026-11-30T17:00:05")).toBe("2026-11-30 17:00:05");
    expect(sinceArg("@1795000000")).toBe("@1795000000");
    for (const bad of ["'; rm -rf /", "$(id)", "last week", "-1h", "2026-13-45", "2026-02-30", "2026-11-30 25:00"])
      expect(sinceArg(bad)).toBeNull();
    expect(sinceArg("2028-02-29")).toBe("2028-02-29");
  });

  it("each value is one argument for the remote shell, with follow and a bounded default window", () => {
    const argv = logsArgv({ service: "a b.service", container: "c'1", since: null, follow: true });
    const echoed = execFileSync("sh", ["-c", `printf '%s\\n' ${shellJoin(argv.slice(1))}`], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(echoed).toEqual(argv.slice(1));
    expect(argv).toContain("--follow");
    expect(argv).toContain("--lines=50000");
    expect(argv).toEqual(
      expect.arrayContaining(["CONTAINER_NAME=c'1", "_SYSTEMD_UNIT=a b.service", "UNIT=a b.service"]),
    );
    // no container (an engine the unit runs itself): the unit's own lines and systemd's about it
    const direct = logsArgv({ service: "d.service", container: null, since: null, follow: false });
    expect(direct.filter((a) => a.startsWith("CONTAINER_NAME="))).toEqual([]);
    expect(direct.slice(-3)).toEqual(["_SYSTEMD_UNIT=d.service", "+", "UNIT=d.service"]);
  });

  it("refuses bad flags with what is accepted", () => {
    expect(() => logsRequest({ boot: "last", since: null, follow: false, json: false }, "e", "s", "c")).toThrow(
      /--boot last: expected current, previous/,
    );
    expect(() =>
      logsRequest({ boot: null, since: "yesterday-ish", follow: false, json: false }, "e", "s", "c"),
    ).toThrow(/--since yesterday-ish/);
    expect(() => logsRequest({ boot: "previous", since: null, follow: true, json: false }, "e", "s", "c")).toThrow(
      /--follow streams the current boot/,
    );
  });
});

describe("printing", () => {
  it("stamps lines in UTC and names the boot in its header", () => {
    expect(stamp(Date.UTC(2026, 10, 30, 17, 58, 1, 123) * 1000)).toBe("2026-11-30 17:58:01.123");
    const b = pick("current").sel.boot!;
    expect(lineText(b.records[0]!)).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {2}systemd: Starting frank\.service/,
    );
    expect(bootHeader(b, 0, 4, "frank")).toMatch(
      /^-- frank: boot 4 of 4 \(current\) · container frank · .* UTC · 4 line\(s\) --$/,
    );
  });
});
