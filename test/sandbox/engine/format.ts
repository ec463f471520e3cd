// vLLM's line formats (reference §1.1-1.2): `(PROC pid=N) LEVEL MM-DD HH:MM:SS [file:line] msg`,
// multi-line messages repeat the whole header and end every line but the last in `\r`.

export interface Proc {
  name: string;
  pid: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function vllmTime(d: Date): string {
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function prefix(p: Proc): string {
  return `(${p.name} pid=${p.pid}) `;
}

/** One log record as the process writes it: one or more `\n`-terminated lines. */
export function logRecord(p: Proc, level: string, at: Date, where: string, msg: string): string {
  const header = `${level} ${vllmTime(at)} [${where}] `;
  const body = header + msg.replace(/\n/g, `\r\n${header}`);
  return raw(p, body);
}

/** Raw writes (tracebacks printed by Python, tqdm, uvicorn): only the process prefix per line. */
export function raw(p: Proc, text: string): string {
  return (
    text
      .split("\n")
      .map((l) => prefix(p) + l)
      .join("\n") + "\n"
  );
}

/** uvicorn's `%(levelprefix)s %(message)s`, levelprefix = `LEVEL:` padded to 8 + 1 (`INFO:     `). */
export function uvicorn(p: Proc, level: string, msg: string): string {
  return raw(p, `${level}:${" ".repeat(Math.max(0, 8 - level.length))} ${msg}`);
}

/** A Python dict repr the way vLLM prints `non-default args` (single quotes, True). */
export function pyRepr(o: Record<string, string | number | boolean>): string {
  const v = (x: string | number | boolean) =>
    typeof x === "boolean"
      ? x
        ? "True"
        : "False"
      : typeof x === "number"
        ? String(x)
        : `'${x.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  return `{${Object.entries(o)
    .map(([k, x]) => `'${k}': ${v(x)}`)
    .join(", ")}}`;
}

export const fmtInt = (n: number) => n.toLocaleString("en-US");
