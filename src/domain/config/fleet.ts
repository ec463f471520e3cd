// deploy-gate.yml keys of a fleet endpoint: `hosts:` (replicas of one endpoint), `rollout:` (canary,
// batch, pause) and `replicas:` (what verify.replicas tolerates between hosts).
import * as z from "zod";
import { sshTarget } from "./ssh-target.js";

const hostName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "expected a host name for reports and --hosts (letters, digits, _ . -)");

/** A replica: its own SSH target and pin, an optional short name (default: its address), its URL where it differs. */
export const fleetHosts = z
  .array(sshTarget.extend({ name: hostName.optional(), url: z.url({ protocol: /^https?$/ }).optional() }))
  .min(1)
  .refine((hs) => new Set(hs.map((h) => h.name ?? h.address)).size === hs.length, {
    message: "two hosts share a name: give each host its own name: (hosts with the same address need one)",
  })
  // Two entries for one machine share its lock: the second always fails on the first's, and every rerun
  // rolls back. Host names are case-blind, as DNS is; the same address behind another jump host is
  // another machine.
  .superRefine((hs, ctx) => {
    const seen = new Map<string, number>();
    hs.forEach((h, i) => {
      const via = h.jump ? ` via ${h.jump.address.toLowerCase()}:${h.jump.port}` : "";
      const at = `${h.address.toLowerCase()}:${h.port}${via}`;
      const first = seen.get(at);
      if (first === undefined) return void seen.set(at, i);
      const label = (j: number) => `hosts[${j}] (${hs[j]!.name ?? hs[j]!.address})`;
      ctx.addIssue({
        code: "custom",
        path: [i],
        input: undefined, // the message names both entries; the list itself says nothing more
        message: `${label(i)} is the machine of ${label(first)}: ${at}; one machine is one entry (its lock is one lock): remove one`,
      });
    });
  });

export function rolloutSchema<D extends z.ZodType<number>>(duration: D) {
  return z
    .strictObject({
      /** hosts deployed and verified alone first */
      canary: z.number().int().min(0).default(1),
      /** hosts deployed in parallel in each later step */
      batch: z.number().int().min(1).default(1),
      /** wait between steps (0: none) */
      pause: duration.default(0 as never),
    })
    .prefault({});
}

export const replicasSchema = z
  .strictObject({
    /** KV tokens of a replica may differ from the fleet's median by this fraction (0.02 = 2%) */
    kvTolerance: z.number().min(0).max(1).default(0.02),
  })
  .prefault({});
