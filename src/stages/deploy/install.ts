// deploy.install: the endpoint's files at the deployed commit (never the work tree), written atomically
// with their modes, and the state record that rollback and drift checks read.
import type { Host } from "../../ports/host/host.js";
import { shellJoin, shellQuote } from "../../lib/shell-quote.js";
import type { StageContext } from "../context.js";
import {
  isUnitFile,
  nextStateRecord,
  parseStateRecord,
  planInstall,
  sha256,
  type InstallFile,
  type PlannedFile,
} from "./install-plan.js";
import { statePath, type StateRecord } from "../../domain/host-state.js";
import { normMode, parseHostCopies } from "../../domain/host-output.js";

const CMD_TIMEOUT_MS = 30_000;

export { statePath };

export class InstallError extends Error {}

/** The files at ctx.sha; a path missing at that commit is an error naming it. */
export async function readInstallFiles(ctx: StageContext): Promise<InstallFile[]> {
  const items = ctx.endpoint.install ?? [];
  return Promise.all(
    items.map(async (item) => {
      const path = ctx.repoPath(item.from);
      const content = await ctx.reader.showBytes(ctx.sha, path);
      if (content === null)
        throw new InstallError(
          `${path} does not exist at ${ctx.ref} (${ctx.sha.slice(0, 10)}): commit it, or fix install.from in ${ctx.configFile}`,
        );
      return { from: path, to: item.to, mode: normMode(item.mode), content, sha256: sha256(content) };
    }),
  );
}

/** Host copies (sha256, mode) and the old state record, in one round trip. */
export async function readHostSide(
  host: Host,
  endpoint: string,
  files: readonly InstallFile[],
): Promise<{ planned: PlannedFile[]; old: StateRecord | null; hostNowS: number }> {
  const paths = files.map((f) => f.to);
  const q = paths.length ? ` -- ${paths.map(shellQuote).join(" ")}` : "";
  const script = [
    "date +%s",
    "echo @@sum",
    paths.length ? `sha256sum${q} 2>/dev/null` : "true",
    "echo @@stat",
    paths.length ? `stat -c '%a %n'${q} 2>/dev/null` : "true",
    "echo @@state",
    `cat ${shellQuote(statePath(endpoint))} 2>/dev/null`,
    "true",
  ].join("; ");
  const r = await host.runShell(script, { timeoutMs: CMD_TIMEOUT_MS });
  const [head, rest = ""] = r.stdout.split("@@sum\n");
  const [sum = "", rest2 = ""] = rest.split("@@stat\n");
  const [stat = "", state = ""] = rest2.split("@@state\n");
  const hostNowS = Number(head!.trim());
  if (!Number.isFinite(hostNowS) || hostNowS <= 0)
    throw new InstallError(`reading the host's copies failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`);
  return { planned: planInstall(files, parseHostCopies(sum, stat)), old: parseStateRecord(state), hostNowS };
}

export interface InstallResult {
  planned: PlannedFile[];
  written: PlannedFile[];
  unitChanged: boolean;
  record: StateRecord;
}

export async function install(ctx: StageContext, by: string): Promise<InstallResult> {
  const files = await readInstallFiles(ctx);
  const { planned, old, hostNowS } = await readHostSide(ctx.host, ctx.name, files);
  const written = planned.filter((f) => f.change !== "same");
  const dirs = [
    ...new Set([
      ...written.map((f) => f.to.replace(/\/[^/]*$/, "") || "/"),
      statePath(ctx.name).replace(/\/[^/]*$/, ""),
    ]),
  ];
  const mk = await ctx.host.run(["mkdir", "-p", "--", ...dirs], { timeoutMs: CMD_TIMEOUT_MS });
  if (mk.code !== 0)
    throw new InstallError(
      `${shellJoin(["mkdir", "-p", ...dirs])} failed: ${mk.stderr.trim()}; check the SSH user may write there`,
    );
  for (const f of written)
    await ctx.host.writeFile(f.to, f.content, parseInt(f.mode, 8), { timeoutMs: CMD_TIMEOUT_MS });
  const record = nextStateRecord(old, {
    endpoint: ctx.name,
    ref: ctx.ref,
    sha: ctx.sha,
    deployedAt: hostNowS,
    by,
    files,
  });
  await ctx.host.writeFile(statePath(ctx.name), `${JSON.stringify(record, null, 2)}\n`, 0o644, {
    timeoutMs: CMD_TIMEOUT_MS,
  });
  return { planned, written, unitChanged: written.some((f) => isUnitFile(f.to)), record };
}

/** `diff -u` of the host's copy against the ref's, run on the host with the new content on stdin. */
export async function diffAgainstHost(host: Host, f: PlannedFile): Promise<string> {
  if (f.change === "mode") return `mode of ${f.to} becomes ${f.mode}`;
  const argv = [
    "diff",
    "-u",
    "--label",
    `host:${f.to}`,
    "--label",
    `${f.from} (ref)`,
    f.change === "new" ? "/dev/null" : f.to,
    "-",
  ];
  const r = await host.run(argv, { stdin: f.content, timeoutMs: CMD_TIMEOUT_MS, maxOutputBytes: 1 << 20 });
  return r.stdout.trimEnd() || `${f.to}: ${f.change}`;
}
