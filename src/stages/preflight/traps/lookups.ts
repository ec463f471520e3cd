// Builds the TrapContext: parses the unit, reads its Exec*= lines as one-line scripts so a
// `podman run` in ExecStart= is checked like one in the script, and offers the lookups rules share.
import type { Command, ContainerRuntime, ServeScript } from "../../../domain/launch/model.js";
import type { FileKind } from "../../../domain/launch/launch.js";
import { parseUnit } from "../../../domain/launch/unit.js";
import { execScripts } from "../../../domain/launch/unit-exec.js";
import type { LocatedCommand, LocatedRun, Source, TrapContext, TrapHit } from "./types.js";

/**
 * The sources a file's commands come from. A script: itself, then the unit's Exec*= lines. A unit named as
 * the endpoint's file: its Exec*= lines. A quadlet: the podman run it generates (at ExecStart), then its
 * [Service] Exec*= lines. The unit rules read the unit or the quadlet itself.
 */
export function buildContext(
  script: ServeScript,
  scriptPath: string,
  unit: { path: string; text: string } | null,
  bootTimeoutSeconds: number,
  images: TrapContext["images"] = {},
  kind: FileKind = "script",
): TrapContext {
  const sources: Source[] = [];
  // a compose file or a manifest is its own runtime: no unit around it
  const yaml = kind === "compose" || kind === "kubernetes";
  const unitFile = kind === "script" ? unit : yaml ? null : { path: scriptPath, text: script.text };
  if (kind === "script" || yaml) sources.push({ file: scriptPath, script, origin: kind });
  if (kind === "quadlet") {
    const generated: ServeScript = {
      ...script,
      commands: [],
      podmanRuns: script.podmanRuns.filter((r) => r.runtime === "quadlet"),
    };
    sources.push({ file: scriptPath, script: generated, origin: "ExecStart" });
  }
  let parsedUnit: TrapContext["unit"] = null;
  if (unitFile) {
    const parsed = parseUnit(unitFile.text);
    const lines = unitFile.text.split("\n");
    parsedUnit = { ...unitFile, parsed, lines };
    for (const e of execScripts(parsed, lines)) sources.push({ file: unitFile.path, script: e.script, origin: e.key });
  }
  return { script, scriptPath, unit: parsedUnit, sources, bootTimeoutSeconds, images, kind };
}

/** Container runs started by one of the given runtimes (a rule about podman's behaviour reads podman's runs). */
export function runsOf(ctx: TrapContext, runtimes: readonly ContainerRuntime[]): LocatedRun[] {
  return allRuns(ctx).filter(({ item }) => runtimes.includes(item.runtime));
}

export function allRuns(ctx: TrapContext): LocatedRun[] {
  return ctx.sources.flatMap((source) => source.script.podmanRuns.map((item) => ({ source, item })));
}

export function allCommands(ctx: TrapContext): LocatedCommand[] {
  return ctx.sources.flatMap((source) => source.script.commands.map((item) => ({ source, item })));
}

/** The podman runs that start an engine: each source's engine run, unless it is a --rm helper with no engine flags. */
export function engineRuns(ctx: TrapContext): LocatedRun[] {
  return ctx.sources.flatMap((source) => {
    const run = source.script.engine?.podmanRun;
    return run && (run.engineFlags.length > 0 || !run.rm) ? [{ source, item: run }] : [];
  });
}

export function engines(ctx: TrapContext): { source: Source; engine: NonNullable<ServeScript["engine"]> }[] {
  return ctx.sources.flatMap((source) => (source.script.engine ? [{ source, engine: source.script.engine }] : []));
}

/** The text of a line of the file a source comes from, for evidence. */
export function lineOf(ctx: TrapContext, file: string, line: number): string {
  const lines = ctx.unit && file === ctx.unit.path ? ctx.unit.lines : ctx.script.lines;
  return (lines[line - 1] ?? "").trimEnd();
}

/**
 * Commands of `source` that run before `line` in it, plus the unit's ExecStartPre= lines when the source runs at start.
 */
export function commandsBefore(ctx: TrapContext, source: Source, line: number): LocatedCommand[] {
  const earlier = source.script.commands.filter((c) => c.line < line).map((item) => ({ source, item }));
  if (source.origin !== "script" && source.origin !== "ExecStart") return earlier;
  const pre = ctx.sources.filter((s) => s.origin === "ExecStartPre");
  return [...earlier, ...pre.flatMap((s) => s.script.commands.map((item) => ({ source: s, item })))];
}

/** A hit at one line of a file, with that line and any other lines named, in file order, as evidence. */
export function hitAt(
  ctx: TrapContext,
  file: string,
  line: number,
  summary: string,
  fix: string,
  alsoLines: number[] = [],
): TrapHit {
  const evidence = [...new Set([line, ...alsoLines])].sort((a, b) => a - b).map((l) => lineOf(ctx, file, l));
  return { file, line, summary, evidence, fix };
}

/**
 * A hit at a place that may be in another file than the source's (a flag from a chart's values.yaml, a probe from
 * its helper): there the evidence is what the rule read, not a line of the source.
 */
export function hitIn(
  ctx: TrapContext,
  source: Source,
  at: { file?: string; line: number },
  read: string,
  summary: string,
  fix: string,
): TrapHit {
  if (!at.file || at.file === source.file) return hitAt(ctx, source.file, at.line, summary, fix);
  return { file: at.file, line: at.line, summary, evidence: [read], fix };
}

/** One hit per command `pick` objects to, at the command's first line. */
export function perCommand(
  ctx: TrapContext,
  pick: (cmd: Command, source: Source) => { summary: string; fix: string } | null,
): TrapHit[] {
  return allCommands(ctx).flatMap(({ source, item }) => {
    const found = pick(item, source);
    return found ? [hitAt(ctx, source.file, item.line, found.summary, found.fix)] : [];
  });
}
