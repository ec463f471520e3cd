// Runs every preflight check over the targets and returns their findings, in a stable order.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { StatusEntry } from "../../ports/git/git.js";
import { fail, pass, skip, warn, type Finding } from "../../domain/report/finding.js";
import { parseFlagSpec } from "../../domain/launch/contract.js";
import { isNewPart } from "../../domain/launch/launch.js";
import { shellQuote } from "../../lib/shell-quote.js";
import { headPartsOf, kindOf, readLaunch } from "./read-launch.js";
import { checkedAsRendered, dropEnds, expandRendered, renderedScript } from "./rendered.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { checkEngineTraps, checkTraps, type TrapInput } from "./traps/check-traps.js";
import { bashSyntax, syntaxFinding } from "./bash-syntax.js";
import { isZsh, zshSyntax } from "./zsh-syntax.js";
import { ScriptBatch } from "./script-batch.js";
import { cleanTreeFinding } from "./clean-tree.js";
import { mergeSharedFindings } from "./shared-findings.js";
import { SHALLOW_FIX, type PreflightContext, type PreflightTarget } from "./targets.js";
import { checkContracts } from "./contracts.js";
import { droppedFlags } from "./dropped-flags.js";
import { checkGoneLaunches, checkGoneRenders } from "./gone-launch.js";
import { checkAppliedValues } from "./applied-values.js";
import { checkRemovedParts } from "./removed-parts.js";
import { checkEngineKills } from "./engine-kills.js";
import { historyFinding } from "./history.js";
import { refusePath } from "./paths.js";
import { shellcheck, shellcheckAvailable, shellcheckResult } from "./shellcheck.js";

/** git status once per run: every check that asks shares the answer. */
function status(ctx: PreflightContext): Promise<StatusEntry[]> {
  return (ctx.statusCache ??= ctx.git.status());
}

export async function runPreflight(ctx: PreflightContext): Promise<Finding[]> {
  const findings: Finding[] = [];
  // Start the slow questions together; the checks below find the answers cached.
  const [entries, hasShellcheck] = await Promise.all([
    ctx.ref === null ? status(ctx) : Promise.resolve([]),
    ctx.ref === null ? shellcheckAvailable() : Promise.resolve(false),
    ...(ctx.historyOk ? ctx.targets.map((t) => ctx.reader.history(t.scriptPath, ctx.ref ?? "HEAD")) : []),
  ]);
  if (ctx.ref === null) findings.push(cleanTreeFinding(entries as StatusEntry[], { config: ctx.configPath ?? null }));
  findings.push(historyFinding(!ctx.historyOk));
  findings.push(...(await checkGoneLaunches(ctx)));
  findings.push(...(await checkRemovedParts(ctx, ctx.targets)));
  findings.push(...(await checkEngineKills(ctx, (p) => readScript(ctx, p))));
  if (ctx.targets.length === 0) {
    findings.push(
      fail("preflight.bash-syntax", "no serve script, unit or quadlet that starts an inference server found", {
        fix: "add deploy-gate.yml naming each endpoint's script (or unit / quadlet), or run from the repository that holds them (scripts, *.service units or *.container quadlets that start vLLM, SGLang or llama.cpp, directly or in podman/docker)",
      }),
    );
    return findings;
  }
  if (ctx.targets.every((t) => t.endpoint === null)) {
    findings.push(
      skip(
        "preflight.contracts",
        `no deploy-gate.yml: contract flags not checked for the ${ctx.targets.length} serve script(s) found`,
        {
          fix: "declare each endpoint's contract flags in deploy-gate.yml (see docs/config.md)",
        },
      ),
    );
  }
  if (ctx.ref === null && !hasShellcheck) {
    findings.push(
      skip("preflight.shellcheck", "shellcheck is not installed", {
        fix: "install it (apt-get install shellcheck) to get its warnings",
      }),
    );
  }
  ctx.shellcheck = hasShellcheck === true;
  // a chart or overlay is rendered first: each of its engine containers is a target of its own
  const expanded: PreflightTarget[] = [];
  // charts and overlays that render and start no engine now: their launch may have gone away since the base
  const emptied: PreflightTarget[] = [];
  for (const t of ctx.targets) {
    if (!t.render) expanded.push(t);
    else {
      const r = await expandRendered(ctx, t);
      expanded.push(...r.targets);
      findings.push(...r.findings);
      if (!t.render.plain && r.targets.length === 0 && r.findings.length === 0) emptied.push(t);
    }
  }
  findings.push(...(await checkGoneRenders(ctx, emptied)));
  findings.push(...(await checkAppliedValues(ctx)));
  const overlays = expanded.filter((t) => t.render);
  const targets = expanded.filter((t) => !checkedAsRendered(t, overlays));
  if (ctx.ref === null) {
    const scripts = targets.filter(
      (t) =>
        t.kind === "script" && !t.sharesFile && !/\.(ya?ml|zsh)$/i.test(t.scriptPath) && refused(ctx, t).length === 0,
    );
    ctx.scriptBatch = new ScriptBatch(ctx.root, scripts, ctx.shellcheck);
  }
  const perTarget = await Promise.all(
    targets.map((t) => preflightTarget(ctx, t).finally(() => ctx.scriptBatch?.done(t))),
  );
  findings.push(...mergeSharedFindings(perTarget.flat()));
  return findings;
}

async function readScript(ctx: PreflightContext, path: string): Promise<string | null> {
  if (ctx.ref) return ctx.reader.show(ctx.ref, path);
  try {
    return readFileSync(join(ctx.root, path), "utf8");
  } catch {
    return null;
  }
}

/** A symlink or a path outside the repository, named in the config, is refused before it is read. */
function refused(ctx: PreflightContext, t: PreflightTarget): Finding[] {
  const CHECK = t.kind === "script" ? "preflight.bash-syntax" : "preflight.traps";
  return [t.scriptPath, t.unitPath].flatMap((p) => {
    const why = p === null ? null : refusePath(ctx.root, p);
    return why
      ? [
          fail(CHECK, `${why}: deploy-gate reads only regular files inside the repository`, {
            file: p!,
            fix: `point endpoints.${t.name} in deploy-gate.yml at the real file inside the repository (not a link to it, nor a path outside it)`,
          }),
        ]
      : [];
  });
}

async function preflightTarget(ctx: PreflightContext, t: PreflightTarget): Promise<Finding[]> {
  // a file with several launches (compose services, containers) names the one each finding is about
  const label = (f: Finding) =>
    t.part && f.summary.startsWith(`${t.scriptPath}:`)
      ? `${t.scriptPath} (${t.part}):${f.summary.slice(t.scriptPath.length + 1)}`
      : f.summary;
  const tag = (fs: Finding[]) =>
    fs.map((f) => ({
      ...f,
      summary: label(f),
      data: {
        endpoint: t.name,
        ...(t.part ? { part: t.part } : {}),
        ...(t.unitPath ? { unit: t.unitPath } : {}),
        ...(t.launcher ? { launcher: t.launcher } : {}),
        // (the chart or overlay it came through: a template or base may serve several)
        ...(t.render ? { renderDir: t.render.dir } : {}),
        ...f.data,
      },
    }));
  const bad = refused(ctx, t);
  if (bad.length) return tag(bad);
  const rendered = t.render ? await renderedScript(ctx, t, ctx.ref) : null;
  const text = rendered ? rendered.text : await readScript(ctx, t.scriptPath);
  if (text === null) {
    const isDir = !ctx.ref && statSync(join(ctx.root, t.scriptPath), { throwIfNoEntry: false })?.isDirectory() === true;
    return tag([
      fail(
        t.kind === "script" ? "preflight.bash-syntax" : "preflight.traps",
        `${t.scriptPath} ${isDir ? "is a directory, not a file" : "does not exist"}${ctx.ref ? ` at ${ctx.ref}` : ""}`,
        {
          file: t.scriptPath,
          fix: t.endpoint
            ? `check endpoints.${t.name}.${t.kind === "script" ? "script" : t.kind} in deploy-gate.yml: paths there are relative to the config file (this one resolved to ${t.scriptPath} from the repository root)`
            : "commit the script, or name it in deploy-gate.yml",
        },
      ),
    ]);
  }
  const kind = kindOf(t, text);
  const script = rendered ?? (await readLaunch(ctx, t, text, ctx.ref));
  if (script.unreadable) {
    const unread = fail("preflight.traps", `${t.scriptPath}: ${script.unreadable}; no check of this file ran`, {
      file: t.scriptPath,
      fix:
        script.unreadableFix ??
        "a serve script nests a few levels at most: flatten the nesting (a variable per $( ... ) step), or keep this file out of the serve scripts",
      data: { unread: true },
    });
    return tag(kind === "script" ? [await bashSyntax(text, t.scriptPath), unread] : [unread]);
  }
  const unitFile = t.unitPath ? await readScript(ctx, t.unitPath) : null;
  // a unit an installer writes with a heredoc: its body alone, at its own lines in the installer
  const unitText =
    unitFile !== null && t.unitSpan
      ? unitFile
          .split("\n")
          .map((l, i) => (i + 1 >= t.unitSpan![0] && i + 1 <= t.unitSpan![1] ? l : ""))
          .join("\n")
      : unitFile;
  const history = () => ctx.reader.history(t.scriptPath, ctx.ref ?? "HEAD");

  const out: Finding[] = [];
  // a unit, a quadlet, a compose file or a manifest is no shell script: bash -n and shellcheck would report noise;
  // a script's second engine shares the file with the first, whose target checks the file once
  const fileChecks = !t.sharesFile;
  if (kind === "script" && fileChecks && isZsh(t.scriptPath, text)) out.push(await zshSyntax(text, t.scriptPath));
  else if (kind === "script" && fileChecks) {
    // the batch's answers for work-tree files; a file it has none for is checked on its own
    const batch = ctx.ref === null ? await ctx.scriptBatch?.want(t, t.scriptPath) : undefined;
    const abs = join(ctx.root, t.scriptPath);
    const syntax = batch?.bash.get(t.scriptPath);
    out.push(
      syntax ? syntaxFinding(text, t.scriptPath, t.scriptPath, syntax, abs) : await bashSyntax(text, t.scriptPath),
    );
    if (ctx.ref === null && ctx.shellcheck) {
      const sc = batch?.shellcheck.get(t.scriptPath);
      out.push(...(sc ? shellcheckResult(sc, t.scriptPath) : await shellcheck(abs, t.scriptPath, ctx.root)));
    }
  }
  const specs = t.endpoint?.contracts.flags ?? [];
  if (t.endpoint)
    out.push(
      ...(await checkContracts({
        reader: ctx.reader,
        file: t.scriptPath,
        script,
        specs,
        historyOk: ctx.historyOk,
        history,
      })),
    );
  out.push(...(await checkDropped(ctx, t, script, new Set(specs.map((s) => parseFlagSpec(s).name)))));
  if (t.unitPath && unitText === null) {
    out.push(
      fail("preflight.traps", `unit file ${t.unitPath} does not exist`, {
        file: t.unitPath,
        fix: `check endpoints.${t.name}.unit in deploy-gate.yml: paths there are relative to the config file (this one resolved to ${t.unitPath} from the repository root)`,
      }),
    );
  }
  const trapInput = (of: ServeScript): TrapInput => ({
    script: of,
    scriptPath: t.scriptPath,
    kind,
    unit: t.unitPath && unitText !== null ? { path: t.unitPath, text: unitText } : null,
    bootTimeoutSeconds: (t.endpoint?.boot.timeout ?? 1_200_000) / 1000,
    images: t.endpoint?.images ?? {},
  });
  if (t.unitOnly) {
    // the script's own findings came with its first unit: this unit adds only what its own keys cause
    const own = checkTraps(trapInput(script), t.endpoint?.traps ?? {}).filter((f) => f.file === t.unitPath);
    // (a second launcher of the script, with no unit of its own, is named by its own file)
    const quiet = t.unitPath
      ? pass("preflight.traps", `${t.unitPath}: no known trap in this unit (it runs ${t.scriptPath})`, {
          file: t.unitPath,
        })
      : pass("preflight.traps", `${t.launcher}: starts ${t.scriptPath}, checked with it`, { file: t.launcher! });
    return tag([...out.filter((f) => f.check === "preflight.traps"), ...(own.length ? own : [quiet])]);
  }
  if (fileChecks) out.push(...checkTraps(trapInput(script), t.endpoint?.traps ?? {}));
  else {
    // the engine's own rules judge it: the first engine's target checked the file with the first engine only
    const first = ctx.targets.find((o) => o.scriptPath === t.scriptPath && !o.sharesFile) ?? t;
    const firstScript = await readLaunch(ctx, first, text, ctx.ref);
    out.push(...checkEngineTraps(trapInput(script), trapInput(firstScript), t.endpoint?.traps ?? {}));
  }
  if (t.endpoint?.rollback) out.push(...(await checkRollbackRef(ctx, t, t.endpoint.rollback.ref)));
  return tag(ctx.ref ? out.map((f) => offTree(f, ctx.ref!)) : out);
}

/**
 * A finding about another revision's file (--ref, the rollback ref) keeps its line in the evidence
 * only: GitHub puts annotations on the run's commit, where that line number points at other text.
 */
function offTree(f: Finding, ref: string): Finding {
  if (f.line === undefined) return f;
  const { line, ...rest } = f;
  return { ...rest, evidence: [`${ref}:${f.file ? `${f.file}:` : ""}${line}`, ...(f.evidence ?? [])] };
}

/** The base: --base, else the rollback ref, else the last commit before the current change to the script. */
async function resolveBase(
  ctx: PreflightContext,
  t: PreflightTarget,
): Promise<{ sha: string; label: string; short: string } | { error: Finding }> {
  const CHECK = "preflight.dropped-flags";
  const explicit = ctx.base ?? t.endpoint?.rollback?.ref ?? null;
  if (explicit) {
    const sha = await ctx.reader.resolve(explicit);
    // a full commit id (a pull request's base.sha) is shown as the 10 characters every other line uses;
    // the report's data keeps it whole
    const shown = /^[0-9a-f]{40}$/.test(explicit) ? explicit.slice(0, 10) : explicit;
    if (sha) return { sha, label: explicit, short: shown };
    return {
      error: fail(CHECK, `base ref ${explicit} not found`, {
        file: t.scriptPath,
        fix: ctx.historyOk ? `check the ref name (git tag -l; git branch -a) or pass --base REF` : SHALLOW_FIX,
      }),
    };
  }
  const dirty = ctx.ref === null && (await status(ctx)).some((e) => e.path === t.scriptPath);
  const head = ctx.ref ?? "HEAD";
  if (dirty) {
    const sha = await ctx.reader.resolve(head);
    if (sha) return { sha, label: `${head} (${sha.slice(0, 10)})`, short: sha.slice(0, 10) };
  }
  const last = await lastChange(ctx, t, head);
  const parent = last?.parents[0] ?? null;
  if (!last || !parent)
    return { error: skip(CHECK, `${t.scriptPath}: no earlier version to compare with`, { file: t.scriptPath }) };
  return {
    sha: parent,
    label: `${parent.slice(0, 10)} (before ${last.sha.slice(0, 10)} "${last.subject}")`,
    short: parent.slice(0, 10),
  };
}

/**
 * The newest commit that changed the script, or the unit that runs it: a unit that stops passing the script a flag
 * (`ExecStart=/opt/serve.sh big.gguf --no-mmap` -> `... big.gguf`) changes the launch as much as the script does.
 */
async function lastChange(ctx: PreflightContext, t: PreflightTarget, head: string) {
  const last = (await ctx.reader.history(t.scriptPath, head))[0]?.commit;
  const unit = t.unitPath ? (await ctx.reader.history(t.unitPath, head))[0]?.commit : undefined;
  if (!unit || !last || unit.sha === last.sha) return last ?? unit;
  // (the newer of the two: a child of the other, else the later commit date)
  const newer =
    unit.parents.includes(last.sha) ||
    (!last.parents.includes(unit.sha) && Date.parse(unit.date) > Date.parse(last.date));
  return newer ? unit : last;
}

async function checkDropped(
  ctx: PreflightContext,
  t: PreflightTarget,
  now: ServeScript,
  contractNames: Set<string>,
): Promise<Finding[]> {
  if (!ctx.historyOk)
    return [skip("preflight.dropped-flags", "could not run: shallow clone", { file: t.scriptPath, fix: SHALLOW_FIX })];
  const base = await resolveBase(ctx, t);
  if ("error" in base) return [base.error];
  const atBase = await scriptAtBase(ctx, t, base.sha);
  if (atBase === null && ctx.base) {
    // the user named this base: comparing with nothing is not a pass, nor a quiet skip
    return [
      warn(
        "preflight.dropped-flags",
        `${t.scriptPath} is not at --base ${ctx.base} under this name, nor under an earlier name git's rename detection finds: dropped flags not checked`,
        {
          file: t.scriptPath,
          fix: `pass --base with a ref that has the script (\`git log --follow --oneline -- ${shellQuote(t.scriptPath)}\` lists the commits that touched it)`,
        },
      ),
    ];
  }
  if (atBase === null)
    return [skip("preflight.dropped-flags", `${t.scriptPath} did not exist at ${base.label}`, { file: t.scriptPath })];
  if (t.part && !t.render && now.text && isNewPart(kindOf(t, now.text), atBase.text, now.text, t.part))
    return [
      skip("preflight.dropped-flags", `${t.scriptPath} (${t.part}): a new launch since ${base.label}`, {
        file: t.scriptPath,
      }),
    ];
  const ends = t.render
    ? await dropEnds(ctx, t, base.sha, atBase.text, now)
    : { base: await readLaunch(ctx, t, atBase.text, base.sha, headPartsOf(t, now.text)), now, asWritten: false };
  if (ends === "newPart")
    return [
      skip("preflight.dropped-flags", `${t.scriptPath} (${t.part}): a new launch since ${base.label}`, {
        file: t.scriptPath,
      }),
    ];
  if (ends === "unrendered")
    return [
      warn("preflight.dropped-flags", `${t.render!.dir} did not render at ${base.label}: dropped flags not checked`, {
        file: t.scriptPath,
        fix: `pass --base with a commit where \`${t.render!.tool === "helm" ? "helm template" : "kubectl kustomize"} ${t.render!.dir}\` succeeds`,
      }),
    ];
  const baseScript = ends.base;
  const found = droppedFlags(
    baseScript.engine?.flags ?? [],
    ends.now.engine?.flags ?? [],
    t.scriptPath,
    base.label,
    contractNames,
    base.short,
    atBase.path,
    baseScript.engine?.kind ?? now.engine?.kind,
  );
  // said, so a pass is not read as the render's
  const asWritten = ends.asWritten
    ? [`${t.render!.dir} did not render at ${base.label}: ${t.scriptPath} compared as written`]
    : [];
  // a dropped flag has no line now: annotations point at the engine command, where it goes back
  const at = now.engine?.line;
  return found.map((f) => ({
    ...f,
    ...(at && f.status !== "pass" && !f.line ? { line: at } : {}),
    ...(asWritten.length ? { evidence: [...(f.evidence ?? []), ...asWritten] } : {}),
  }));
}

/**
 * The script as it was at the base: under its name, else under the name it had there (a rename
 * staged in the work tree, then the renames committed since, as git log --follow finds them).
 */
async function scriptAtBase(
  ctx: PreflightContext,
  t: PreflightTarget,
  sha: string,
): Promise<{ path: string; text: string } | null> {
  const same = await ctx.reader.show(sha, t.scriptPath);
  if (same !== null) return { path: t.scriptPath, text: same };
  const staged =
    ctx.ref === null ? (await status(ctx)).find((e) => e.code[0] === "R" && e.path === t.scriptPath)?.from : undefined;
  const atHead = staged ?? t.scriptPath;
  const path = (await ctx.git.nameAt(atHead, sha, ctx.ref ?? "HEAD")) ?? atHead;
  const text = path === t.scriptPath ? null : await ctx.reader.show(sha, path);
  return text === null ? null : { path, text };
}

async function checkRollbackRef(ctx: PreflightContext, t: PreflightTarget, ref: string): Promise<Finding[]> {
  const CHECK = "preflight.rollback-ref";
  const sha = await ctx.reader.resolve(ref);
  if (!sha) {
    return [
      fail(CHECK, `rollback ref ${ref} does not exist`, {
        fix: ctx.historyOk
          ? `create it (git tag ${shellQuote(ref)} <good commit>; git push origin ${shellQuote(ref)}) or fix rollback.ref in deploy-gate.yml`
          : SHALLOW_FIX,
        data: { ref },
      }),
    ];
  }
  const text = await ctx.reader.show(sha, t.scriptPath);
  if (text === null)
    return [
      fail(CHECK, `${t.scriptPath} does not exist at rollback ref ${ref}`, {
        file: t.scriptPath,
        fix: "point rollback.ref at a commit that has the serve script",
        data: { ref, sha },
      }),
    ];
  const syntax = kindOf(t, text) === "script" ? [await bashSyntax(text, t.scriptPath, `${t.scriptPath}@${ref}`)] : [];
  const specs = t.endpoint?.contracts.flags ?? [];
  const contracts = await checkContracts({
    reader: ctx.reader,
    file: t.scriptPath,
    script: await readLaunch(ctx, t, text, sha),
    specs,
    historyOk: false,
    noTraceReason: `at ${ref}`,
    history: async () => [],
  });
  const broken = [...syntax, ...contracts].filter((f) => f.status === "fail");
  if (broken.length === 0)
    return [
      {
        check: CHECK,
        status: "pass",
        summary: `rollback ref ${ref} (${sha.slice(0, 10)}) passes ${syntax.length ? "bash -n and " : ""}its ${specs.length} contracts`,
        data: { ref, sha },
      },
    ];
  return broken.map((f) => ({
    ...offTree(f, ref),
    check: CHECK,
    summary: `rollback ref ${ref}: ${f.summary}`,
    fix: `the rollback target itself is broken: fix it and move the tag, or point rollback.ref at a good commit. ${f.fix ?? ""}`.trim(),
    data: { ref, sha, ...f.data },
  }));
}
