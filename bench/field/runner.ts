// Runs the real preflight on a field cache: the cached files of each repository (and commit) put back at their
// own paths in one temporary git repository, preflight in discovery mode (no config) as a new user runs it, the
// launch model's targets and flags read beside it; each drop on a clone of its fetched repository at the drop's
// commit with --base its parent.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { parseCli } from "../../src/cli/args.js";
import { runCommand } from "../../src/commands/index.js";
import type { Finding } from "../../src/domain/report/finding.js";
import { discoverTargets } from "../../src/stages/preflight/discover.js";
import { readLaunch } from "../../src/stages/preflight/read-launch.js";
import { checkedAsRendered, renderedParts } from "../../src/stages/preflight/rendered.js";
import type { PreflightTarget } from "../../src/stages/preflight/targets.js";
import type { GitReader } from "../../src/ports/git/batched.js";
import { tempRepo } from "../../test/helpers/repo.js";
import type { Fetched, FieldDrop, FieldKey } from "./key.js";
import { dropHit, type DropRun, type EntryRun } from "./score.js";

async function preflight(dir: string, args: string[] = []): Promise<Finding[]> {
  const opts = parseCli(["preflight", "--json", ...args], dir);
  if (typeof opts === "string" || "help" in opts) throw new Error(`preflight options did not parse`);
  return (await runCommand(opts)).findings;
}

/** Where a repository path came from: the key entry and the path inside it (for a chart or overlay directory). */
interface Origin {
  entry: string;
  rel: string | undefined;
}

function originMap(rows: readonly Fetched[], key: FieldKey): Map<string, Origin> {
  const out = new Map<string, Origin>();
  for (const r of rows) {
    if (key.files[r.name]) out.set(r.path, { entry: r.name, rel: undefined });
    else {
      const entry = Object.keys(key.files).find((e) => r.name.startsWith(`${e}/`));
      if (entry) out.set(r.path, { entry, rel: r.name.slice(entry.length + 1) });
    }
  }
  return out;
}

/**
 * A directory's copy of a file the key also holds as an entry of its own (a manifest a kustomization lists, cached
 * alone too): read alone, not through the directory's render, it is that entry's, as the repository has one such file.
 */
function aloneMap(rows: readonly Fetched[], key: FieldKey): Map<string, Origin> {
  const out = new Map<string, Origin>();
  for (const r of rows) {
    const entry = key.files[r.name] ? undefined : Object.keys(key.files).find((e) => r.name.startsWith(`${e}/`));
    const rel = entry ? r.name.slice(entry.length + 1) : undefined;
    const alone = rel ? Object.entries(key.files).find(([, f]) => f.repo === r.repo && f.path === rel) : undefined;
    if (alone) out.set(r.path, { entry: alone[0], rel: undefined });
  }
  return out;
}

/**
 * The entry a chart or overlay directory is: the one cached as it (its cache name, or the name and its path in the
 * repository), with the file's own place inside it; undefined when no entry is that directory.
 */
function owned(key: FieldKey, dir: string, byFile: Origin | undefined): Origin | undefined {
  // (an early key cached a chart's parent: opea's helm-charts/common/vllm is the cache's common/vllm)
  const is = (name: string, path: string) => {
    if (dir === name || dir === posix.join(name, path)) return true;
    const rel = dir.startsWith(`${name}/`) ? dir.slice(name.length + 1) : null;
    return rel !== null && path.endsWith(`/${rel}`);
  };
  // (an early key wrote a note after the path: "overlays/production (with its base ../../base)")
  const entry = Object.entries(key.files).find(([name, f]) => is(name, f.path.replace(/\s+\(.*\)$/, "")));
  if (!entry) return undefined;
  return byFile?.entry === entry[0] ? byFile : { entry: entry[0], rel: byFile?.rel };
}

const unreadRepo = {} as GitReader; // the work tree is read from disk: no git reads at ref null

/** One repository (and commit) of the cache: preflight's findings and the targets read, per entry. */
async function runGroup(cacheDir: string, rows: readonly Fetched[], key: FieldKey, runs: Map<string, EntryRun>) {
  const repo = tempRepo("dg-field-");
  try {
    for (const r of rows) {
      const src = join(cacheDir, r.name);
      if (!statSync(src, { throwIfNoEntry: false })?.isFile()) continue;
      // bytes as they are: a chart's vendored dependency is a .tgz
      repo.write(r.path, readFileSync(src));
      if (/\.(sh|bash)$/.test(r.path)) execFileSync("chmod", ["+x", join(repo.dir, r.path)]);
    }
    repo.commit(`files of ${rows[0]!.repo}`);
    const origin = originMap(rows, key);
    const alone = aloneMap(rows, key);
    const findings = await preflight(repo.dir);
    // a directory kustomize refuses (`kubectl apply -k` fails) starts nothing: its copy of a manifest the key holds
    // alone too is read as that entry's; a directory kustomize takes is its own entry's
    const refused = findings.filter((f) => f.data?.rendered === false && f.file).map((f) => posix.dirname(f.file!));
    const readAlone = (file: string) =>
      (refused.some((d) => file.startsWith(`${d}/`)) ? alone.get(file) : undefined) ?? origin.get(file);
    for (const f of findings) {
      // a unit paired with the script it runs is checked with it: found too
      const unit = typeof f.data?.unit === "string" ? origin.get(f.data.unit) : undefined;
      if (unit && runs.get(unit.entry)) runs.get(unit.entry)!.discovered = true;
      // so is a script that starts the compose file (`docker compose up`)
      const launcher = typeof f.data?.launcher === "string" ? origin.get(f.data.launcher) : undefined;
      if (launcher && runs.get(launcher.entry)) runs.get(launcher.entry)!.discovered = true;
      const byFile = f.file ? origin.get(f.file) : undefined;
      // a finding made through a chart or overlay belongs to the entry of that chart or overlay, and to none when
      // the directory is only a copy inside another entry's (a whole repository cached for one overlay of it)
      const o =
        typeof f.data?.renderDir === "string"
          ? owned(key, f.data.renderDir, byFile)
          : f.file
            ? readAlone(f.file)
            : undefined;
      const run = o ? runs.get(o.entry) : undefined;
      if (!o || !run) continue;
      // a chart or overlay that did not render is named as an endpoint so the report groups its one finding, but no
      // launch was read from it
      // (so is a file preflight could not read at all: YAML the runtime's parser refuses)
      if (f.data?.endpoint !== undefined && (f.data?.rendered === false || f.data?.unread === true))
        run.unrendered = true;
      else if (f.data?.endpoint !== undefined) run.discovered = true;
      const scored =
        (f.check === "preflight.traps" && typeof f.data?.rule === "string") ||
        (f.check === "preflight.bash-syntax" && f.status === "fail");
      if (scored && (f.status === "fail" || f.status === "warn"))
        run.emitted.push({
          check: f.check,
          ...(typeof f.data?.rule === "string" ? { rule: f.data.rule } : {}),
          ...(f.line !== undefined ? { line: f.line } : {}),
          ...(o.rel ? { file: o.rel } : {}),
          summary: f.summary,
        });
    }
    const files = repo.git("ls-files", "-z").split("\0").filter(Boolean); // -z: names as they are (non-ASCII too)
    const ctx = { root: repo.dir, reader: unreadRepo };
    const found = discoverTargets(repo.dir, files);
    // as preflight does: a manifest an overlay that renders reads is checked as rendered, not alone
    const overlays: PreflightTarget[] = [];
    // (a directory of plain manifests is read as written: its render only says whether kustomize takes it)
    for (const t of found.filter((x) => x.render && !x.render.plain)) {
      const parts = await renderedParts(ctx, t.render!, null);
      if (Array.isArray(parts) && parts.length) overlays.push(t);
    }
    // the scripts each launcher file starts (a compose file counts once)
    const launches = new Map<string, Set<string>>();
    for (const t of found) {
      if (checkedAsRendered(t, overlays) || t.render?.plain) continue;
      if (t.render) {
        const parts = await renderedParts(ctx, t.render, null);
        if (!Array.isArray(parts)) continue;
        for (const p of parts) {
          const o = owned(key, t.render.dir, origin.get(p.file));
          const run = o ? runs.get(o.entry) : undefined;
          if (!run || !p.script.engine) continue;
          run.targets.push({
            name: p.part,
            ...(o!.rel ? { file: o!.rel } : {}),
            // a flag a patch wrote is at the patch's line: its own file, not the part's
            flags: p.script.engine.flags.map((x) => {
              const at = (x.file ? origin.get(x.file) : undefined) ?? o!;
              return { flag: x.name, line: x.line, ...(at.rel ? { file: at.rel } : {}) };
            }),
          });
        }
        continue;
      }
      const u = t.unitPath ? origin.get(t.unitPath) : undefined;
      // a unit that runs the script holds no engine flag itself
      if (u && runs.get(u.entry)) runs.get(u.entry)!.targets.push({ name: null, flags: [] });
      // nor does a script that runs `docker compose up` (one target for the file, whichever service), or that runs
      // serve scripts of the repository (one target for each script it starts)
      const l = t.launcher ? origin.get(t.launcher) : undefined;
      const lr = l ? runs.get(l.entry) : undefined;
      const launched = (launches.get(t.launcher!) ?? new Set<string>()).add(t.kind === "compose" ? "" : t.scriptPath);
      if (lr && t.launcher) launches.set(t.launcher, launched);
      if (lr && lr.targets.length < launched.size) lr.targets.push({ name: null, flags: [] });
      const o = readAlone(t.scriptPath);
      const run = o ? runs.get(o.entry) : undefined;
      // a chart's or overlay's entry that renders is read through its render: a manifest of its cached tree read
      // alone (a patch no kustomization names) is a file of the repository the key does not hold, not the entry's
      // target (one that does not render is read through its manifests, as written)
      const entry = o ? key.files[o.entry] : undefined;
      // (the cache keeps a directory entry under its own name: `firstresponder-kustomize/kustomize/overlays/local`)
      const rendersHere = !refused.some((d) => d === entry?.path || d.endsWith(`/${entry?.path}`));
      // (a kustomize directory that lists only its own manifests is read as written: those manifests are its targets)
      const norm = (d: string) => posix.normalize(d || ".");
      const here = (d: string) =>
        norm(d) === o?.entry || norm(d) === norm(entry?.path ?? "") || norm(d).endsWith(`/${entry?.path}`);
      const plainHere = found.some((x) => x.render?.plain && here(x.render.dir));
      if (!run || (/^(kustomize|helm)$/.test(entry?.kind ?? "") && rendersHere && !plainHere)) continue;
      const script = await readLaunch(ctx, t, readFileSync(join(repo.dir, t.scriptPath), "utf8"), null);
      run.targets.push({
        name: t.part ?? null,
        ...(o?.rel ? { file: o.rel } : {}),
        flags: (script.engine?.flags ?? []).map((x) => ({ flag: x.name, line: x.line })),
      });
    }
  } finally {
    repo.cleanup();
  }
}

/**
 * A chart or overlay fetched as one directory row (its path names the directory): a row per file inside it, each
 * under the cache name (the layout inside is the repository's, so relative references like ../../base still hold).
 */
function expandDirectories(cacheDir: string, rows: readonly Fetched[]): Fetched[] {
  return rows.flatMap((r) => {
    if (!statSync(join(cacheDir, r.name), { throwIfNoEntry: false })?.isDirectory()) return [r];
    const files = readdirSync(join(cacheDir, r.name), { recursive: true, withFileTypes: true }).filter((d) =>
      d.isFile(),
    );
    return files.map((d) => {
      const name = join(relative(cacheDir, d.parentPath), d.name);
      return { ...r, name, path: name };
    });
  });
}

export async function runEntries(cacheDir: string, rows: readonly Fetched[], key: FieldKey): Promise<EntryRun[]> {
  const runs = new Map<string, EntryRun>(
    Object.entries(key.files).map(([name, file]) => [
      name,
      { name, file, discovered: false, emitted: [], targets: [] },
    ]),
  );
  const groups = new Map<string, Fetched[]>();
  for (const r of expandDirectories(cacheDir, rows)) {
    // one repository is one checkout: each file was cached at the newest commit that touched it, so together they
    // are the repository's files as its head has them (a unit and the script it runs, touched last in two
    // commits); a path already there from another commit goes to a checkout of its own commit
    const clash = groups.get(r.repo)?.some((x) => x.path === r.path && x.commit !== r.commit);
    const k = clash ? `${r.repo}@${r.commit}` : r.repo;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const g of groups.values()) {
    // a slow or stuck repository is named on stderr as it starts
    if (process.env.FIELD_PROGRESS) process.stderr.write(`field: ${g[0]!.repo}@${g[0]!.commit.slice(0, 10)}\n`);
    await runGroup(cacheDir, g, key, runs);
  }
  return [...runs.values()];
}

/** A clone of the fetched repository at the drop's commit, preflight --base its parent; what it says of the flag. */
export async function runDrop(drop: FieldDrop, gitDir: string | undefined): Promise<DropRun> {
  if (!gitDir) return { drop, reported: null, error: `${drop.repo} is not in REPOS.tsv` };
  if (process.env.FIELD_PROGRESS) process.stderr.write(`field drop: ${drop.repo}@${drop.commit.slice(0, 10)}\n`);
  const dir = mkdtempSync(join(tmpdir(), "dg-field-drop-"));
  try {
    const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    execFileSync("git", ["clone", "-q", "--shared", "--no-checkout", gitDir, dir], { stdio: "ignore" });
    git("checkout", "-q", drop.commit);
    const findings = await preflight(dir, ["--base", drop.parent]);
    const hit = dropHit(findings, drop);
    return {
      drop,
      reported: hit
        ? { status: hit.status, baseLine: typeof hit.data?.baseLine === "number" ? hit.data.baseLine : null }
        : null,
    };
  } catch (e) {
    return { drop, reported: null, error: `could not run: ${(e as Error).message.split("\n")[0]}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const cacheHas = (cacheDir: string) =>
  statSync(join(cacheDir, "FETCHED.tsv"), { throwIfNoEntry: false }) !== undefined;
