// Markdown text helpers for the job summary: table cells, fences that survive any content, commit
// links, no accidental links or HTML, and the shell commands of a fix as a block that copies cleanly. Pure.
import { splitCodeSpans } from "./code-span.js";

export const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export function fence(lines: readonly string[], lang = "text"): string {
  const body = lines.join("\n");
  const ticks = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

/** Where commit ids link to: the repository on the server that ran the job (GitHub.com or Enterprise). */
export interface SummaryContext {
  repoUrl?: string | null;
  shas?: readonly string[];
}

export function repoUrlOf(env: NodeJS.ProcessEnv): string | null {
  const server = env.GITHUB_SERVER_URL?.replace(/\/+$/, "");
  return server && env.GITHUB_REPOSITORY && /^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY)
    ? `${server}/${env.GITHUB_REPOSITORY}`
    : null;
}

export const commitLink = (sha: string, ctx: SummaryContext, shown = sha.slice(0, 10)) =>
  ctx.repoUrl ? `[\`${shown}\`](${ctx.repoUrl}/commit/${sha})` : `\`${shown}\``;

/**
 * Prose outside code spans: markdown and HTML characters escaped (a commit subject or a script line cannot
 * close a `<details>`, draw an image or make a link), user@host wrapped in code (GitHub would make it a mailto
 * link), and the short ids of commits the report knows linked to them.
 */
export function prose(text: string, ctx: SummaryContext): string {
  return splitCodeSpans(text)
    .map((part, i) => {
      if (i % 2 === 1) return part; // a code span, as written
      return part.replace(PROSE_TOKEN, (whole, mention: string | undefined, id: string | undefined) => {
        if (mention) return `\`${mention}\``;
        if (id) {
          const full = ctx.repoUrl ? ctx.shas?.find((s) => s.startsWith(id)) : undefined;
          return full ? commitLink(full, ctx, id) : id;
        }
        return `\\${whole}`;
      });
    })
    .join("");
}

const PROSE_TOKEN =
  /(?<![\w.@`-])([A-Za-z_][\w.-]*@\[?[A-Za-z0-9](?:[\w.:-]{0,250}[\w\]])?(?::\d+)?)(?![\w@`])|(?<![\w/`-])([0-9a-f]{7,40})(?![\w`-])|[\\*_[\]<>!~&]/g;

// Command words a fix starts a copyable command with; other code spans (a flag to restore) stay inline.
const COMMAND_START =
  /^(git|deploy-gate|npx|npm|sudo|systemctl|podman|journalctl|ssh|ssh-keygen|ssh-keyscan|apt-get|curl|mkdir|chmod|chown|rm|ls|cat|sed|grep)\s/;

/** The shell commands quoted in a fix, each once, for a ```sh block: single-backtick spans only (a value not
 *  ours is quoted with longer runs, see codeSpan), never one holding a backtick or a newline. */
export function fixCommands(fix: string): string[] {
  const out: string[] = [];
  splitCodeSpans(fix).forEach((part, i) => {
    if (i % 2 === 0 || !/^`[^`\n]+`$/.test(part)) return;
    const c = part.slice(1, -1).trim();
    if (COMMAND_START.test(c) && !out.includes(c)) out.push(c);
  });
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
