// The one remote command each readiness poll runs: host clock, unit state, the container's identity and
// state (or, with no container, the unit's current run), and the journal since the last poll, in one SSH
// round trip. Pure: builds the script only.
import { shellJoin } from "../../lib/shell-quote.js";
import type { ContainerCli } from "../../domain/launch/container-cli.js";

export interface PollTarget {
  service: string;
  /** null: the engine runs straight under the unit (no container) */
  container: string | null;
  /** journal cursor after which to read; null: from `sinceHostS` */
  cursor: string | null;
  sinceHostS: number;
  /** the CLI that started the container (default podman) */
  cli?: ContainerCli;
}

export const SECTION = "@@deploy-gate:";
export const UNIT_PROPS = ["ActiveState", "SubState", "NRestarts", "Result", "ExecMainStatus", "ExecMainCode"] as const;
// ID, state and exit code first: Created (`2026-11-29 21:23:48.375834661 +0000 UTC`, ns) has spaces.
// `podman ps`'s {{.State}} is the human "Up 3 seconds ago" and its JSON Created has whole seconds: inspect has both
// right.
// docker prints the same fields, Created as RFC 3339 (`2026-11-29T21:23:48.375834661Z`).
const INSPECT_FORMAT = "{{.Id}} {{.State.Status}} {{.State.ExitCode}} {{.Created}}";

/** The journal of one endpoint: the container's lines, the unit's stdout copies and systemd's lines about the unit. */
export function journalArgv(t: PollTarget, extra: readonly string[] = []): string[] {
  const from = t.cursor ? [`--after-cursor=${t.cursor}`] : [`--since=@${t.sinceHostS}`];
  return [
    "journalctl",
    "-o",
    "json",
    "--no-pager",
    ...extra,
    ...from,
    ...(t.container === null ? [] : [`CONTAINER_NAME=${t.container}`, "+"]),
    `_SYSTEMD_UNIT=${t.service}`,
    "+",
    `UNIT=${t.service}`,
  ];
}

export const INSTANCE_PROPS = ["InvocationID", "MainPID", "ExecMainStartTimestamp", "ExecMainStatus"] as const;

/**
 * An engine the unit runs itself: its current run (a new InvocationID at every start) in place of the
 * container. Microseconds in UTC (systemd 248+), so "started after the deploy began" is exact; older
 * systemd (RHEL 8's 239, Ubuntu 20.04's 245) has no --timestamp: whole seconds in UTC instead.
 */
export function instanceScript(service: string): string {
  const props = ["-p", INSTANCE_PROPS.join(","), "--", service];
  return `${shellJoin(["systemctl", "show", "--timestamp=us+utc", ...props])} 2>/dev/null || TZ=UTC ${shellJoin(["systemctl", "show", ...props])}`;
}

/** Exits 125 (docker: 1) with "no such container" when there is none: that is an answer, not an error. */
export function inspectArgv(container: string, cli: ContainerCli = "podman"): string[] {
  return [cli, "container", "inspect", "--format", INSPECT_FORMAT, "--", container];
}

export function unitArgv(service: string): string[] {
  return ["systemctl", "show", "-p", UNIT_PROPS.join(","), "--", service];
}

/** The last line of a poll: without it (sshd killed, the link gone mid-command) the poll is no reading. */
export const END = "end";
export const POLL_SECTIONS = ["unit", "ps", "journal"] as const;

/**
 * journalctl exits 1 when nothing follows the cursor: each section ends with its own exit code instead,
 * and the whole poll with END, so a reader can tell a finished answer from output cut mid-way.
 */
export function pollScript(t: PollTarget): string {
  const section = (name: string, command: string) => `echo ${SECTION}${name}; ${command} 2>&1; echo ${SECTION}rc=$?`;
  return [
    `echo ${SECTION}now; date +%s%N`,
    section("unit", shellJoin(unitArgv(t.service))),
    section(
      "ps",
      t.container === null ? `{ ${instanceScript(t.service)}; }` : shellJoin(inspectArgv(t.container, t.cli)),
    ),
    section("journal", shellJoin(journalArgv(t, ["--show-cursor"]))),
    `echo ${SECTION}${END}`,
  ].join("; ");
}

/** Host clock (ns) and a journal cursor taken together, just before the restart. */
export const MARK_SCRIPT = `date +%s%N; journalctl -n 0 --show-cursor --no-pager 2>/dev/null; true`;
