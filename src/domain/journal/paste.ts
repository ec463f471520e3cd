// Logs as people paste them: what an issue tracker, a pager or a log command adds around the line, taken
// off so the line itself is read. Pure; one line in, the line (or null: decoration only) out.

/** Issue-tracker and e-mail quoting: `> `, `> > `, `>` alone. */
const QUOTE = /^(?:[ \t]*>(?: |$))+/;
/** Line-number gutters of log viewers and issue trackers: `  42 | `, `42│`, `L42: `, `42\t`. */
const GUTTER = /^[ \t]*L?\d{1,6}(?:[ \t]*[|│┃][ \t]?|:[ \t]+(?=\D)|\t)/;
/**
 * `docker compose up`/`logs` and `podman-compose logs`: the container's name padded to a column, then ` | `
 * (compose v2's formatter: `%-Ns | ` with N one past the longest name, so two spaces at least; v1 pads to the longest
 * name, so one): `SERVICE-1  | `, `SERVICE_1 | `, or a `container_name:` like `ollama  | `. A name without the replica
 * number needs the two spaces (`a | b` is prose), and a level word in that place is a loguru-style line
 * (`ERROR    | …`), not a container.
 */
const COMPOSE =
  /^[ \t]*(?:[A-Za-z0-9][\w.-]*[-_]\d+[ \t]+|(?!(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|WARN|ERROR|CRITICAL|FATAL)[ \t])[A-Za-z0-9][\w.-]*[ \t]{2,})\| ?/;
/** `minikube logs` bullets every line of its sections (`* Nov 20 21:23:52 minikube kubelet[…]: …`): taken off only
 * before a journal timestamp, so a markdown list item stays what it is. */
const BULLET = /^\* (?=\S{2,6} +\d{1,2} \d\d:\d\d:\d\d )/;
/** `journalctl -x` catalog text (systemd >= 246 marks it `░░ `; older `-- Subject:` …) and journalctl's banners. */
const JOURNAL_DECORATION =
  /^(?:░░|-- (?:Subject|Defined-By|Support|Documentation|Logs begin at|Journal begins at|Boot [0-9a-f]+ --|No entries --|Reboot --|The (?:unit|job|process)|A (?:start|stop) job|An ExecStart= process)|--\s*$)/;
/** `less -S`/`systemctl status` cut a long line and mark it with an ellipsis. */
const ELLIPSIS = /(?:…|\.\.\.)$/;

/** docker logs --timestamps (`…Z`), podman logs -t (`…+00:00`), and the CRI format (`… stdout F `). */
const RUNTIME_TS =
  /^(?<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) (?:(?:stdout|stderr) [FP] )?(?<rest>.*)$/s;

export interface Unpasted {
  text: string;
  /** µs since the epoch when a runtime timestamp prefix carried it, else null */
  ts: number | null;
  /** the line ended in a pager's ellipsis: it is a prefix of the real line */
  cut: boolean;
}

export function unpaste(raw: string): Unpasted | null {
  let line = raw.replace(QUOTE, "");
  line = line.replace(GUTTER, "").replace(COMPOSE, "").replace(BULLET, "");
  if (JOURNAL_DECORATION.test(line)) return null;
  let ts: number | null = null;
  const rt = RUNTIME_TS.exec(line);
  // journalctl short-iso has `host ident[pid]:` after the time: plainlog reads that form itself.
  if (rt && !/^\S+ [^\s[:]+(?:\[\d+\])?: /.test(rt.groups!.rest!)) {
    const ms = Date.parse(rt.groups!.iso!.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
    ts = Number.isFinite(ms) ? ms * 1000 : null;
    line = rt.groups!.rest!;
  }
  const cut = ELLIPSIS.test(line) && !/\.\.\.<\d+ lines>\.\.\.$/.test(line);
  if (cut) line = line.replace(ELLIPSIS, "");
  return { text: line, ts, cut };
}
