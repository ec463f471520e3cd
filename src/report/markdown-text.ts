// Markdown text helpers for the job summary: table cells, fences that survive any content, commit
// links, no accidental links, and the shell commands of a fix as a block that copies cleanly. Pure.

export const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export function fence(lines: readonly string[], lang = "text"): string {
  const body = lines.join("\n");
  const ticks = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

/** Where commit ids link to: the repository on the server that ran the job (GitHub.com or Enterprise). */
export interface SummaryContext { repoUrl?: string | null; shas?: readonly string[] }

export function repoUrlOf(env: NodeJS.ProcessEnv): string | null {
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, "");
  return server && env.GITHUB_REPOSITORY && /^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY) ? `${server}/${env.GITHUB_REPOSITORY}` : null;
}

export const commitLink = (sha: string, ctx: SummaryContext, shown = sha.slice(0, 10)) =>
  ctx.repoUrl ? `[\`${shown}\`](${ctx.repoUrl}/commit/${sha})` : `\`${shown}\``;

/** Prose outside code spans: user@host wrapped in code (GitHub would make it a mailto link), and
 *  the short ids of commits the report knows linked to them. */
export function prose(text: string, ctx: SummaryContext): string {
  return text.split(/(`+[^`]*`+)/).map((part, i) => {
    if (i % 2 === 1) return part; // a code span, as written
    let out = part.replace(/(?<![\w.@`-])([A-Za-z_][\w.-]*@\[?[A-Za-z0-9][\w.:-]*\]?(?::\d+)?)(?![\w@`])/g, "`$1`");
    if (ctx.repoUrl && ctx.shas?.length) {
      out = out.replace(/(?<![\w/`-])([0-9a-f]{7,40})(?![\w`-])/g, (id) => {
        const full = ctx.shas!.find((s) => s.startsWith(id));
        return full ? commitLink(full, ctx, id) : id;
      });
    }
    return out;
  }).join("");
}

// Command words a fix starts a copyable command with; other code spans (a flag to restore) stay inline.
const COMMAND_START = /^(git|deploy-gate|npx|npm|sudo|systemctl|podman|journalctl|ssh|ssh-keygen|ssh-keyscan|apt-get|curl|mkdir|chmod|chown|rm|ls|cat|sed|grep)\s/;

/** The shell commands quoted in a fix, each once, for a ```sh block. */
export function fixCommands(fix: string): string[] {
  const out: string[] = [];
  for (const m of fix.matchAll(/`([^`\n]+)`/g)) {
    const c = m[1]!.trim();
    if (COMMAND_START.test(c) && !out.includes(c)) out.push(c);
  }
  return out;
}

/** Every full commit id the report's findings name (data values), for linking their short forms. */
export function knownShas(values: readonly unknown[]): string[] {
  const found = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === "string" && /^[0-9a-f]{40}$/.test(v)) found.add(v);
    else if (v && typeof v === "object" && depth < 4) for (const x of Object.values(v)) visit(x, depth + 1);
  };
  for (const v of values) visit(v, 0);
  return [...found];
}
