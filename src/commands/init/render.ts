// deploy-gate.yml text for discovered serve scripts. Pure.
import { SCHEMA_ID } from "../../domain/config/json-schema.js";
import type { FileKind } from "../../domain/launch/launch.js";
import type { EngineKind } from "../../domain/engine/kind.js";
import { clientChecks } from "../../domain/engine/flag-roles.js";
import { maskUnlessReference } from "../../domain/redact/mask.js";
import type { EngineFlag } from "./current-flags.js";

/** `script` is the file's path whatever its kind; `kind` says which key names it (script, unit or quadlet). */
export interface InitEndpoint {
  name: string;
  kind?: FileKind;
  script: string;
  /** the compose service or Kubernetes container, in a file with several */
  part?: string | null;
  /** the unit that runs the script, so its trap rules run too */
  unit?: string;
  /** the engine the file starts (default vllm) */
  engine?: EngineKind;
  flags: EngineFlag[] | null;
}

const q = (s: string) => JSON.stringify(s); // a JSON string is a valid YAML double-quoted scalar
const spec = (f: EngineFlag) => (f.value === null ? f.name : `${f.name} ${f.value}`);
/** A value still holding an unresolved variable would make a contract that never matches. */
const usable = (f: EngineFlag) => !f.optional && (f.value === null || !/[$`]/.test(f.value));

/** The flags init declares as contracts: client-facing, always passed, with a known value; once each. */
export function contractFlags(flags: readonly EngineFlag[]): EngineFlag[] {
  const seen = new Set<string>();
  return flags.filter((f) => !seen.has(f.name) && seen.add(f.name)).filter((f) => f.clientFacing && usable(f));
}

function endpointYaml(e: InitEndpoint): string[] {
  // a compose file or a manifest is named as script: its content says what it is
  const key = e.kind === "unit" || e.kind === "quadlet" ? e.kind : "script";
  const out = [
    `  ${e.name}:`,
    `    ${key}: ${q(e.script)}`,
    ...(e.part ? [`    part: ${q(e.part)}`] : []),
    ...(e.unit ? [`    unit: ${q(e.unit)}`] : []),
  ];
  if (!e.flags)
    return [
      ...out,
      "    # no engine command (podman run ... or vllm serve) found in this file: add contracts by hand",
      "",
    ];
  const seen = new Set<string>();
  const unique = e.flags.filter((f) => !seen.has(f.name) && seen.add(f.name));
  const contract = contractFlags(unique);
  const others = unique.filter((f) => !contract.includes(f));
  out.push("    contracts:");
  out.push(contract.length ? "      flags:" : "      flags: []");
  for (const f of contract) out.push(`        - ${q(spec(f))}`);
  if (others.length) {
    out.push("      # also in the engine argv now; add the ones clients or the host rely on:");
    // a literal --api-key / --hf-token value is the secret: the config names the flag, never copies the value
    for (const f of others) out.push(`      #   - ${q(spec({ ...f, value: maskUnlessReference(f.name, f.value) }))}`);
  }
  const checks = clientChecks(e.engine ?? "vllm", unique);
  if (checks.thinking) out.push("      thinking: true   # verify: reasoning arrives in its own field");
  if (checks.tools) out.push("      tools: true      # verify: tool calls work");
  return [...out, ""];
}

export function renderInit(endpoints: readonly InitEndpoint[]): string {
  return [
    `# yaml-language-server: $schema=${SCHEMA_ID}`,
    "# Written by deploy-gate init from the serve scripts' current engine argv. Paths are relative to this file.",
    "# Review the contract flags; run/verify also need host, service, install, url and model, and container",
    "# when a container runs the engine (podman/docker run, a quadlet; not when the unit runs it itself)",
    "# (see docs/config.md, or hover a key in an editor that reads the schema above).",
    "version: 1",
    "endpoints:",
    ...endpoints.flatMap(endpointYaml),
  ].join("\n");
}

/** Endpoint names for the files found: the file's name, with its directory before it where two share one
 *  (a/serve.sh and b/serve.sh become a-serve and b-serve, not serve and serve-2). */
export function endpointNames(files: readonly { name: string; scriptPath: string }[]): string[] {
  const count = new Map<string, number>();
  for (const f of files) count.set(f.name, (count.get(f.name) ?? 0) + 1);
  const taken = new Set<string>();
  return files.map((f) => {
    const dir = f.scriptPath.split("/").slice(-2, -1)[0];
    const name = endpointName((count.get(f.name) ?? 0) > 1 && dir ? `${dir}-${f.name}` : f.name, taken);
    taken.add(name);
    return name;
  });
}

/** A valid, unique endpoint name from a script's file name. */
export function endpointName(base: string, taken: ReadonlySet<string>): string {
  const clean = base.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "") || "endpoint";
  let name = clean;
  for (let i = 2; taken.has(name); i++) name = `${clean}-${i}`;
  return name;
}
