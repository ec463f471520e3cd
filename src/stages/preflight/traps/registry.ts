// Every trap rule, in the order findings are reported. Adding a rule: write it, list it here,
// add it to TRAP_RULES in src/config/schema.ts, and give it a trip and a pass fixture.
import { cacheMountMkdir } from "./cache-mount.js";
import { ipcShm, memlock, renderNodes } from "./devices.js";
import { autoToolChoice, templateKwargs } from "./engine-flags.js";
import { detachedRedirect, entrypointServe } from "./image-args.js";
import { nameReuse } from "./name-reuse.js";
import { secretInArgv } from "./secrets.js";
import { bareStash, broadKill, transientUnit, unmergedLogGrep } from "./shell-hygiene.js";
import { stopTimeout } from "./stop-timeout.js";
import { smallShm } from "./shared-memory.js";
import type { TrapRuleDef } from "./types.js";
import { restartOnFailure, startLimitSection, startTimeout } from "./unit-lifecycle.js";

export const TRAP_RULE_DEFS: readonly TrapRuleDef[] = [
  renderNodes,
  ipcShm,
  startLimitSection,
  stopTimeout,
  autoToolChoice,
  memlock,
  cacheMountMkdir,
  restartOnFailure,
  startTimeout,
  templateKwargs,
  secretInArgv,
  unmergedLogGrep,
  broadKill,
  nameReuse,
  transientUnit,
  bareStash,
  entrypointServe,
  detachedRedirect,
  smallShm,
];
