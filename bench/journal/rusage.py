# Runs one command as a whole process and reports what it cost, start-up included: wall time, CPU time
# (user + system of the child and its threads, from wait4) and peak RSS. Used for both sides of the explain
# comparison, so deploy-gate's bundle and the Python procedure are measured the same way, as a user runs them.
# usage: rusage.py STDIN_FILE|- COMMAND ARGS...  ->  one JSON line; the command's stdout is passed on in "out".
import json, os, subprocess, sys, time

stdin = open(sys.argv[1], "rb") if sys.argv[1] != "-" else subprocess.DEVNULL
t0 = time.perf_counter()
p = subprocess.Popen(sys.argv[2:], stdin=stdin, stdout=subprocess.PIPE)
out = p.stdout.read()
_, status, ru = os.wait4(p.pid, 0)
wall_ms = (time.perf_counter() - t0) * 1000
print(json.dumps({"wallMs": wall_ms, "cpuMs": (ru.ru_utime + ru.ru_stime) * 1000, "maxRssKiB": ru.ru_maxrss,
                  "exit": os.waitstatus_to_exitcode(status), "out": out.decode("utf-8", "replace")}))
