// deploy-gate.yml, version 1. Every object is strict: a mistyped key is an error, never ignored.
// Stage-specific fields (host, install, url, ...) are optional here; each stage asks for what it needs
// through requireFor() so `preflight` works with only `script` and `contracts`.
import * as z from "zod";
import { parseDuration } from "../../lib/duration.js";
import { fleetHosts, replicasSchema, rolloutSchema } from "./fleet.js";
import { sshTarget } from "./ssh-target.js";

// The same grammar as parseDuration, as a pattern, so the JSON Schema accepts exactly what the CLI does.
export const DURATION_PATTERN = /^\s*(?:\d+(?:\.\d+)?|(?:\d+(?:\.\d+)?(?:ms|s|m|h))+)\s*$/;
const DURATION_MSG = 'expected a duration such as "20m", "5s", "1h30m" or a number of seconds';
const duration = z
  .union([z.string().regex(DURATION_PATTERN, DURATION_MSG), z.number().nonnegative(DURATION_MSG)], {
    error: DURATION_MSG,
  })
  .transform((v) => parseDuration(v)!);

// A zero poll spins the host; a zero timeout gives up before the first look.
const positiveDuration = duration.refine((ms) => ms > 0, {
  message: 'expected a duration above zero, such as "5s" or "20m"',
});

export const TRAP_RULES = [
  "render-nodes",
  "ipc-shm",
  "memlock",
  "cache-mount-mkdir",
  "stop-timeout",
  "restart-on-failure",
  "start-limit-section",
  "start-timeout",
  "template-kwargs",
  "auto-tool-choice",
  "secret-in-argv",
  "unmerged-log-grep",
  "broad-kill",
  "name-reuse",
  "transient-unit",
  "bare-stash",
  "entrypoint-serve",
  "detached-redirect",
  "small-shm",
] as const;
export type TrapRule = (typeof TRAP_RULES)[number];
export const trapLevel = z.enum(["off", "warn", "fail"]);
export type TrapLevel = z.infer<typeof trapLevel>;

/** A hook: an executable in the repository, relative to the config file, run on the runner (Kamal's hooks). */
const hookPath = z
  .string()
  .regex(/^[^\0]+$/, "expected the path of an executable in the repository, relative to deploy-gate.yml");

const installItem = z.strictObject({
  from: z.string().min(1),
  to: z.string().regex(/^\/[^\0]*$/, "expected an absolute path on the host"),
  mode: z
    .string()
    .regex(/^0?[0-7]{3,4}$/, 'expected an octal mode such as "0755"')
    .default("0644"),
});

// verify.decode: the seed's measurement law (usage counters, >= 256 tokens, per-depth table).
const decodeContract = z
  .strictObject({
    /** one floor for every depth, or one per depth (same length as depths) */
    minTokPerS: z.union([z.number().positive(), z.array(z.number().positive()).min(1)]),
    depths: z.array(z.number().int().min(16).max(1_000_000)).min(1).default([166, 1087, 4064]),
    maxTokens: z.number().int().min(16).max(65_536).default(256),
  })
  .refine((d) => !Array.isArray(d.minTokPerS) || d.minTokPerS.length === d.depths.length, {
    message: "minTokPerS as a list needs one floor per depth (same length as depths)",
    path: ["minTokPerS"],
  });

// verify.plan-lines: fork-specific boot lines, matched digit-anchored; group 1 is the number judged.
const planLine = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "expected a short name (lowercase letters, digits, -)"),
  pattern: z
    .string()
    .min(1)
    .superRefine((p, ctx) => {
      // grep -P on the host takes (?i), but the pattern is matched in JavaScript too, which has no inline flags
      if (/\(\?[a-z]*[imsx][a-z-]*[):]/.test(p)) {
        ctx.addIssue({
          code: "custom",
          message:
            "inline flags such as (?i) are not supported (the pattern is also matched as a JavaScript regular expression): spell the cases out, e.g. [Ee]xpert cache",
        });
        return;
      }
      let ok = false;
      try {
        ok = new RegExp(p).source.includes("(") && new RegExp(`${p}|`).exec("")!.length >= 2;
      } catch {
        ok = false;
      }
      if (!ok)
        ctx.addIssue({
          code: "custom",
          message:
            'expected a regular expression with a capture group for the number, e.g. "expert cache space +[0-9.]+ GiB +([0-9,]+) slots"',
        });
    }),
  min: z.number().optional(),
  max: z.number().optional(),
});

const contracts = z.strictObject({
  flags: z
    .array(z.string().regex(/^--?[A-Za-z0-9][\w-]*(\s+\S.*)?$/, 'expected "--flag" or "--flag value"'))
    .default([]),
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name")).default([]),
  kv: z
    .strictObject({
      minTokens: z.number().int().nonnegative().optional(),
      requests: z.number().int().positive().optional(),
    })
    .optional(),
  restarts: z.number().int().nonnegative().default(0),
  thinking: z.boolean().default(false),
  tools: z.boolean().default(false),
  // true: the built-in schema; { schema }: the team's own JSON Schema object
  structured: z.union([z.boolean(), z.strictObject({ schema: z.record(z.string(), z.unknown()) })]).default(false),
  decode: decodeContract.optional(),
  plan: z.array(planLine).default([]),
  metrics: z.array(z.string().min(1)).default([]),
});

/** verify.slo: a bounded load judged against limits and the previous deploy's figures (opt-in). */
const slo = z.strictObject({
  concurrency: z.number().int().min(1).max(256).default(4),
  requests: z.number().int().min(1).max(10_000).default(32),
  promptTokens: z.number().int().min(1).max(1_000_000).default(512),
  maxTokens: z.number().int().min(1).max(100_000).default(128),
  limits: z
    .strictObject({
      ttftP95Ms: z.number().positive().optional(),
      itlP95Ms: z.number().positive().optional(),
      e2eP95Ms: z.number().positive().optional(),
      maxErrorRate: z.number().min(0).max(1).optional(),
      minOutputTokPerS: z.number().positive().optional(),
    })
    .default({}),
  tolerance: z.number().min(0).max(10).default(0.1),
  results: z.string().min(1).optional(),
});

/**
 * What the image does with its arguments, for the entrypoint-serve trap (built-in: vllm/vllm-openai, tcclaviger/vllm).
 */
const imageFacts = z.strictObject({ entrypointServes: z.boolean() });

export const endpointSchema = z
  .strictObject({
    /** the serve script; optional when the engine is started by the unit or quadlet itself */
    script: z.string().min(1).optional(),
    // Names reach systemctl/podman argv: one starting with "-" would read as an option.
    unit: z
      .string()
      .regex(/^(?:[^\0]*\/)?[A-Za-z0-9][^/\0]*$/, "expected a unit file path whose name starts with a letter or digit")
      .optional(),
    /** a podman quadlet (.container) that starts the engine, for an endpoint with no serve script */
    quadlet: z
      .string()
      .regex(
        /^(?:[^\0]*\/)?[A-Za-z0-9][^/\0]*$/,
        "expected a quadlet file path whose name starts with a letter or digit",
      )
      .optional(),
    /** the compose service or Kubernetes Kind/name/container, in a file that starts several engines */
    part: z.string().min(1).optional(),
    service: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9@._:-]*\.service$/,
        'expected a systemd unit name ending in ".service", starting with a letter or digit',
      )
      .optional(),
    container: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "expected a podman container name")
      .optional(),
    host: sshTarget.optional(),
    hosts: fleetHosts.optional(),
    rollout: rolloutSchema(duration),
    replicas: replicasSchema,
    peer: sshTarget.optional(),
    kubernetes: z
      .strictObject({
        // {namespace} and {name}: filled from Flagger's payload by the webhook
        namespace: z
          .string()
          .regex(/^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?|\{namespace\})$/, "expected a Kubernetes namespace name"),
        selector: z
          .string()
          .min(1)
          .max(256)
          .regex(/^[A-Za-z0-9][-A-Za-z0-9_./=!,(){} ]*$/, "expected a label selector such as app=chat"),
        container: z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, "expected a container name"),
        manifest: z.string().min(1).optional(),
      })
      .optional(),
    install: z.array(installItem).optional(),
    url: z
      .url({ protocol: /^https?$/ })
      // fetch refuses a URL with credentials, and the url is echoed in reports and webhook answers
      .refine((u) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(u), {
        message: "must not carry a user or password: put the endpoint's API key in DEPLOY_GATE_API_KEY",
      })
      .optional(),
    model: z.string().min(1).optional(),
    boot: z
      .strictObject({ timeout: positiveDuration.default(20 * 60_000), poll: positiveDuration.default(5000) })
      .prefault({}),
    rollback: z.strictObject({ ref: z.string().min(1), auto: z.boolean().default(false) }).optional(),
    lock: z.strictObject({ staleAfter: positiveDuration.default(60 * 60_000) }).prefault({}),
    hooks: z.strictObject({ "pre-deploy": hookPath.optional(), "post-deploy": hookPath.optional() }).optional(),
    contracts: contracts.prefault({}),
    slo: slo.optional(),
    traps: z.partialRecord(z.enum(TRAP_RULES), trapLevel).default({}),
    /** keyed by image reference without tag/digest (e.g. "docker.io/tcclaviger/vllm") */
    images: z.record(z.string().min(1), imageFacts).default({}),
  })
  .refine((e) => e.script !== undefined || e.unit !== undefined || e.quadlet !== undefined, {
    message:
      "missing: name the file that starts the engine: script (a serve script), or unit / quadlet when the unit or quadlet starts it",
    path: ["script"],
  })
  .refine((e) => !(e.host && e.hosts), {
    message: "an endpoint names host: (one machine) or hosts: (a fleet), not both",
    path: ["hosts"],
  });

export const configSchema = z.strictObject({
  version: z.literal(1),
  endpoints: z
    .record(
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "expected an endpoint name (letters, digits, _ . -)"),
      endpointSchema,
    )
    .refine((r) => Object.keys(r).length > 0, { message: "expected at least one endpoint" }),
});

export type Config = z.infer<typeof configSchema>;
export type Endpoint = z.infer<typeof endpointSchema>;
export type SshTarget = z.infer<typeof sshTarget>;
export type Contracts = Endpoint["contracts"];
export type DecodeContract = NonNullable<Contracts["decode"]>;
export type PlanLineContract = Contracts["plan"][number];
