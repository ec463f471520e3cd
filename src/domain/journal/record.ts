// One decoded log line, whatever it came from (journal JSON, pasted `podman logs`, journalctl short output).
export interface LogRecord {
  /** Microseconds since the epoch; 0 when the source carries no time. */
  ts: number;
  text: string;
  /** syslog priority 0–7 (3 = stderr, 6 = stdout for conmon), null when unknown. */
  priority: number | null;
  container: string | null;
  unit: string | null;
  identifier: string | null;
}
