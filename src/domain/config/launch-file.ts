// Which file of an endpoint starts the engine: its serve script, else its quadlet, else its unit
// (a `.container` named as the unit is a quadlet).
import type { FileKind } from "../launch/launch.js";
import type { Endpoint } from "./schema.js";

export function launchFile(ep: Pick<Endpoint, "script" | "unit" | "quadlet">): { path: string; kind: FileKind } {
  if (ep.script) return { path: ep.script, kind: "script" };
  if (ep.quadlet) return { path: ep.quadlet, kind: "quadlet" };
  const unit = ep.unit!;
  return { path: unit, kind: unit.endsWith(".container") ? "quadlet" : "unit" };
}
