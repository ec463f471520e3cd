// The user's ~/.ssh/config as OpenSSH reads it (ssh_config(5)): Host blocks whose patterns match the
// host name as given, keywords case-blind, `Key value` or `Key=value`, double-quoted arguments, and for
// each keyword the first value obtained wins (IdentityFile adds up). Match blocks and Include are not
// read: their lines are skipped, never applied. Pure; `ssh -G` is the oracle in the tests.
import { wildcard } from "./hostkey.js";

export interface SshConfigLine {
  key: string;
  args: string[];
  line: number;
}

/** What ssh_config says for one host; undefined where it says nothing. */
export interface SshConfigValues {
  hostname?: string;
  user?: string;
  port?: number;
  identityFiles: string[];
  /** ProxyJump as written ([user@]host[:port], comma-separated hops); "none" is read as no jump */
  proxyJump?: string;
  identitiesOnly?: boolean;
  userKnownHostsFiles?: string[];
}

/** A line's words: whitespace-separated, a double-quoted run is one word (quotes dropped). */
function words(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m; (m = re.exec(text));) out.push(m[1] ?? m[2]!);
  return out;
}

export function parseSshConfig(text: string): SshConfigLine[] {
  const out: SshConfigLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    // "Key value", "Key=value" or "Key = value": exactly one '=' may separate the keyword
    const m = /^([A-Za-z][A-Za-z0-9]*)(?:\s*=\s*|\s+)(.*)$/.exec(line);
    if (!m) return;
    out.push({ key: m[1]!.toLowerCase(), args: words(m[2]!), line: i + 1 });
  });
  return out;
}

/**
 * A Host line applies when one pattern matches and no negated one does (readconf.c): the host name as
 * given, case and all (`ssh -G WEB01` matches `Host WEB01`, not `Host web??`).
 */
export function hostMatches(patterns: readonly string[], host: string): boolean {
  let hit = false;
  for (const p of patterns) {
    const negated = p.startsWith("!");
    if (!wildcard(negated ? p.slice(1) : p, host, false)) continue;
    if (negated) return false;
    hit = true;
  }
  return hit;
}

/** The values that apply to `host` (the name as given, before HostName). */
export function resolveSshConfig(lines: readonly SshConfigLine[], host: string): SshConfigValues {
  const v: SshConfigValues = { identityFiles: [] };
  let active = true; // lines before the first Host apply to every host
  for (const { key, args } of lines) {
    if (key === "host") {
      active = hostMatches(args, host);
      continue;
    }
    if (key === "match") {
      active = false; // not read: never applied
      continue;
    }
    if (!active || !args.length) continue;
    const a = args[0]!;
    switch (key) {
      case "hostname":
        v.hostname ??= a.replace(/%(%|h)/g, (_, c: string) => (c === "h" ? host : "%"));
        break;
      case "user":
        v.user ??= a;
        break;
      case "port":
        if (v.port === undefined && /^\d+$/.test(a)) v.port = Number(a);
        break;
      case "identityfile":
        if (a.toLowerCase() !== "none" && !v.identityFiles.includes(a)) v.identityFiles.push(a);
        break;
      case "proxyjump":
        v.proxyJump ??= a;
        break;
      case "identitiesonly":
        v.identitiesOnly ??= a.toLowerCase() === "yes";
        break;
      case "userknownhostsfile":
        v.userKnownHostsFiles ??= args;
        break;
    }
  }
  return v;
}

/** One ProxyJump hop, `[user@]host[:port]` (or an ssh:// URI); null when it is not one. */
export function parseJump(hop: string): { user?: string; host: string; port?: number } | null {
  const m = /^(?:ssh:\/\/)?(?:([^@/]+)@)?(\[[^\]\s]+\]|[^:@/[\]\s]+)(?::(\d+))?\/?$/.exec(hop.trim());
  if (!m) return null;
  return {
    ...(m[1] ? { user: m[1] } : {}),
    host: m[2]!.replace(/^\[|\]$/g, ""),
    ...(m[3] ? { port: Number(m[3]) } : {}),
  };
}

/** `~/` and the %d %u %h %r %% tokens of IdentityFile and UserKnownHostsFile. */
export function expandPath(path: string, t: { home: string; localUser: string; host: string; user: string }): string {
  const tokens: Record<string, string> = { d: t.home, u: t.localUser, h: t.host, r: t.user, "%": "%" };
  const p = path.replace(/%([duhr%])/g, (_, c: string) => tokens[c]!);
  return p === "~" ? t.home : p.startsWith("~/") ? `${t.home}${p.slice(1)}` : p;
}
