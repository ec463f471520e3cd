// curl on a peer: the request as a curl config on stdin (`curl -K -`), so no header or body reaches argv,
// and the status appended after the body. Pure.

const quote = (s: string) =>
  `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}"`;
export const STATUS_MARK = "\n@@dg-http-status:";

export function curlConfig(
  method: "GET" | "POST",
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): string {
  const lines = [
    `url = ${quote(url)}`,
    "silent",
    "show-error",
    `max-time = ${Math.max(1, Math.ceil(timeoutMs / 1000))}`,
    `write-out = ${quote(`${STATUS_MARK}%{http_code}`)}`,
    `request = ${method}`,
  ];
  for (const [k, v] of Object.entries(headers)) lines.push(`header = ${quote(`${k}: ${v}`)}`);
  if (body !== undefined) {
    lines.push(`header = ${quote("content-type: application/json")}`, `data-binary = ${quote(JSON.stringify(body))}`);
  }
  return lines.join("\n") + "\n";
}

/** curl's stdout -> status (null when curl got no HTTP answer: 000) and body. */
export function parseCurlOutput(stdout: string): { status: number | null; body: string } {
  const at = stdout.lastIndexOf(STATUS_MARK);
  if (at < 0) return { status: null, body: stdout };
  const code = Number(stdout.slice(at + STATUS_MARK.length).trim());
  return { status: Number.isFinite(code) && code > 0 ? code : null, body: stdout.slice(0, at) };
}
