# Seed 000 §1's procedure, as the one-liner it describes (`journalctl -o json | python3 -c ...`), streaming
# stdin: decode MESSAGE byte lists, strip ANSI, dedupe by the first ~12 chars, grep for the decisive line.
# argv[1]: how many leading chars form the dedupe key (default 12 as the seed says; 0 = the whole message).
import json, re, resource, sys, time

KEY = int(sys.argv[1]) if len(sys.argv) > 1 else 12

t0, c0 = time.perf_counter(), time.process_time()
ansi = re.compile(r"\x1b\[[0-9;]*m")
grep = re.compile(r"Worker failed with error|OutOfMemoryError|out of memory|Constraints violated|Error")
seen, kept = set(), []
for line in sys.stdin:
    try:
        r = json.loads(line)
    except ValueError:
        continue
    m = r.get("MESSAGE")
    if m is None:
        continue
    if isinstance(m, list):
        m = bytes(int(x) for x in m).decode("utf-8", "replace")
    m = ansi.sub("", m)
    key = m[:KEY] if KEY > 0 else m
    if key in seen:
        continue
    seen.add(key)
    kept.append(m)
hits = [m for m in kept if grep.search(m)]
ms = (time.perf_counter() - t0) * 1000
cpu_ms = (time.process_time() - c0) * 1000
print(json.dumps({"ms": ms, "cpuMs": cpu_ms, "maxRssKiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "decisive": hits[-1].strip() if hits else None, "kept": len(kept)}))
