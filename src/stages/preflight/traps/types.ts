// What a trap rule sees and what it reports. Rules are pure functions of the parsed script and unit.
import type { TrapRule } from "../../../domain/config/schema.js";
import type { Command, PodmanRun, Runtime, ServeScript } from "../../../domain/launch/model.js";
import type { FileKind } from "../../../domain/launch/launch.js";
import type { UnitEntry, UnitFile } from "../../../domain/launch/unit.js";
import type { EngineKind } from "../../../domain/engine/kind.js";

/** A place commands come from: the serve script, or one Exec*= line of the unit read as a script. */
export interface Source {
  file: string;
  script: ServeScript;
  /** "script", or the unit key the command line came from (ExecStart, ExecStop, ...) */
  origin: string;
}

export interface TrapContext {
  script: ServeScript;
  scriptPath: string;
  unit: { path: string; text: string; parsed: UnitFile; lines: string[] } | null;
  /** the script first, then the unit's Exec*= lines in file order */
  sources: Source[];
  /** how long a boot may take (the endpoint's boot.timeout), for start-timeout */
  bootTimeoutSeconds: number;
  /** the config's images: what each image's entrypoint does (entrypoint-serve) */
  images: Readonly<Record<string, { entrypointServes: boolean }>>;
  /** what the endpoint's file is: a serve script, a unit, or a quadlet */
  kind: FileKind;
}

export interface TrapHit {
  file: string;
  line: number;
  summary: string;
  evidence: string[];
  fix: string;
}

export interface TrapRuleDef {
  id: TrapRule;
  defaultLevel: "fail" | "warn";
  /** the runtimes whose behaviour the rule describes (docs/checks.md's trap table; the rule reads only their runs) */
  runtimes: readonly Runtime[];
  /** the engines the rule applies to; the rule is not checked for a file that starts another engine */
  engines: readonly EngineKind[] | "any";
  /** why the trap costs a boot (or a silent outage), said once per rule and carried in each finding */
  why: string;
  check(ctx: TrapContext): TrapHit[];
}

/** every runtime: the rule reads the file's commands or the engine argv, whatever starts it */
export const ANY_RUNTIME: readonly Runtime[] = ["podman", "docker", "quadlet", "systemd", "none"];
/** a unit's keys: a unit or a quadlet, whatever its ExecStart= runs */
export const UNIT_RUNTIMES: readonly Runtime[] = ["systemd", "podman", "docker", "quadlet"];

export interface Located<T> {
  source: Source;
  item: T;
}
export type LocatedRun = Located<PodmanRun>;
export type LocatedCommand = Located<Command>;
export type { UnitEntry };
