// Which endpoint (and which of its hosts) a verb works on, from the config and --endpoint / --hosts, with
// the host given from outside the config (the action's inputs) applied.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "../../domain/config/errors.js";
import { launchFile } from "../../domain/config/launch-file.js";
import type { Endpoint } from "../../domain/config/schema.js";
import { composeLaunchIn, launcherFiles } from "../../domain/launch/compose-target.js";
import { parseLaunch, yamlKind } from "../../domain/launch/launch.js";
import { endpointFor as fleetEndpoint, hostName, selectHosts, type FleetHost } from "../../domain/rollout.js";
import { effectiveTarget } from "../../ports/host/target.js";
import type { PreflightTarget } from "../../stages/preflight/targets.js";
import { discoverTargets } from "../../stages/preflight/discover.js";
import { UsageError, type Options } from "../options.js";
import type { Workspace } from "./workspace.js";

/** A path of deploy-gate.yml (relative to the file itself) as git names it (relative to the root). */
export const repoPath = (ws: Workspace, p: string): string =>
  relative(ws.root, resolve(dirname(ws.configFile!), p))
    .split("\\")
    .join("/");

/** --endpoint naming no endpoint of the config: a config error at that path, so the fix names the file. */
const unknownEndpoint = (ws: Workspace, name: string) =>
  new ConfigError(ws.configFile!, [
    {
      line: null,
      path: `endpoints.${name}`,
      message: `--endpoint ${name} is not in the config; endpoints: ${Object.keys(ws.config!.endpoints).join(", ")}`,
    },
  ]);

export function selectTargets(ws: Workspace, files: readonly string[], endpoint: string | null): PreflightTarget[] {
  if (!ws.config) {
    const found = discoverTargets(ws.root, files);
    if (endpoint) {
      const one = found.filter((t) => t.name === endpoint);
      if (!one.length)
        throw new UsageError(
          `--endpoint ${endpoint}: no deploy-gate.yml here, and no discovered serve script is named so (found: ${found.map((t) => t.name).join(", ") || "none"})`,
        );
      return one;
    }
    return found;
  }
  const names = Object.keys(ws.config.endpoints);
  if (endpoint && !names.includes(endpoint)) throw unknownEndpoint(ws, endpoint);
  return names
    .filter((n) => !endpoint || n === endpoint)
    .map((n) => {
      const ep = ws.config!.endpoints[n]!;
      const rel = (p: string) => repoPath(ws, p);
      const file = launchFile(ep);
      const unitPath = ep.script && ep.unit ? rel(ep.unit) : null;
      // a unit or script that only runs compose up: the engine is the compose file's service, checked as it
      const compose = composeStarted(ws, ep, file);
      if (compose)
        return { name: n, kind: "compose" as const, unitPath, endpoint: ep, ...compose, scriptPath: rel(compose.file) };
      // a unit named next to a script is that script's unit; named alone it is the launch file itself
      return {
        name: n,
        scriptPath: rel(file.path),
        kind: file.kind,
        unitPath,
        part: ep.part ?? null,
        endpoint: ep,
      };
    });
}

/**
 * The compose file an endpoint's unit or serve script starts with compose up (read from the work tree, where
 * preflight reads), when the repository holds it; null for every other launch.
 */
function composeStarted(
  ws: Workspace,
  ep: Endpoint,
  file: { path: string; kind: string },
): { file: string; part: string | null; launcher: string } | null {
  if (file.kind !== "script" && file.kind !== "unit") return null;
  const read = (p: string) => {
    try {
      return readFileSync(join(ws.root, repoPath(ws, p)), "utf8");
    } catch {
      return null;
    }
  };
  const launchers = launcherFiles(ep, file).map((l) => ({ ...l, text: read(l.path) }));
  // a launch file that runs the engine itself keeps it, whatever compose file it also starts
  const own = launchers[0]?.path === file.path ? launchers[0].text : null;
  if (own !== null && parseLaunch(file.kind as "script" | "unit", own).engine) return null;
  const found = composeLaunchIn(launchers, ep.install ?? [], null);
  const composeFile = found?.ref.repoFile;
  if (!found || !composeFile || yamlKind(composeFile, read(composeFile) ?? "") !== "compose") return null;
  const named = found.up.services.length === 1 ? found.up.services[0]! : null;
  return { file: composeFile, part: ep.part ?? named, launcher: repoPath(ws, launchers[found.index]!.path) };
}

/** The one endpoint run, verify, rollback, logs and lock work on: --endpoint, or the config's only one. */
export function oneEndpoint(ws: Workspace, opts: Options, needs: string): { name: string; ep: Endpoint } {
  if (!ws.config) throw new UsageError(`${opts.command} needs deploy-gate.yml (${needs}): see docs/config.md`);
  const names = Object.keys(ws.config.endpoints);
  const name = opts.endpoint ?? (names.length === 1 ? names[0]! : null);
  if (!name)
    throw new UsageError(
      `${opts.command} works on one endpoint: pass --endpoint NAME (endpoints: ${names.join(", ")})`,
    );
  const ep = ws.config.endpoints[name];
  if (!ep) throw unknownEndpoint(ws, name);
  return { name, ep };
}

/** A fleet endpoint's hosts --hosts names (every host without it); --hosts on a one-host endpoint is refused. */
export function hostsOf(name: string, ep: Endpoint, opts: Options): FleetHost[] {
  if (!ep.hosts) {
    if (opts.hosts) throw new UsageError(`--hosts: endpoint ${name} has one host (host:), not hosts:`);
    return [];
  }
  const all = ep.hosts;
  const { hosts, unknown } = selectHosts(all.map(hostName), opts.hosts ?? null);
  if (unknown.length)
    throw new UsageError(
      `--hosts ${unknown.join(",")}: not a host of endpoint ${name} (hosts: ${all.map(hostName).join(", ")})`,
    );
  return all.filter((h) => hosts.includes(hostName(h)));
}

export { fleetEndpoint };

/** The endpoint with the host overrides from outside the config applied (a host given whole by the
 *  action's inputs needs no host: in the config). */
export function endpointFor(ws: Workspace, name: string, opts: Options): Endpoint {
  const ep = ws.config!.endpoints[name]!;
  const o = opts.hostOverride;
  if (!o) return ep;
  if (!ep.host && !ep.hosts && !o.address !== !o.user) {
    throw new UsageError(
      `endpoint ${name} has no host: in ${ws.configFile}: give the host and user inputs together (the ${o.address ? "user" : "host"} input is missing), or add host: to the endpoint`,
    );
  }
  const base = ep.host ?? (o.address && o.user ? { address: o.address, user: o.user, port: 22 } : undefined);
  return base ? { ...ep, host: effectiveTarget(base, o, dirname(ws.configFile!)) } : ep;
}
