// What a verb hands the deploy and verify stages for one host: the endpoint, the ref's files through git,
// the connected host, progress, the run's abort signal, and the API key resolved once.
import type { Endpoint } from "../../domain/config/schema.js";
import { GitReader } from "../../ports/git/batched.js";
import type { Host } from "../../ports/host/host.js";
import type { StageContext } from "../../stages/context.js";
import { repoPath } from "./endpoints.js";
import { runAbort } from "./lifecycle.js";
import type { Workspace } from "./workspace.js";

export function stageContext(
  ws: Workspace,
  name: string,
  ep: Endpoint,
  host: Host,
  ref: string,
  sha: string,
  progress: (s: string) => void,
  fleetHost?: string,
): StageContext {
  return {
    ...(fleetHost ? { fleetHost } : {}),
    name,
    endpoint: ep,
    configFile: ws.configFile!,
    root: ws.root,
    reader: new GitReader(ws.git),
    ref,
    sha,
    host,
    progress,
    now: Date.now,
    signal: runAbort.signal,
    repoPath: (p) => repoPath(ws, p),
    apiKey: ws.apiKey,
  };
}
