// verify.env: each declared env knob landed in the container (a knob the engine never saw makes a
// "parity" arm that is really the default). Values shown, secrets masked.
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { PodmanRun } from "../../domain/launch/model.js";
import { mask } from "../../domain/redact/mask.js";

export const CHECK = "verify.env";

/**
 * `direct`: the engine runs straight under the unit (no container): its environment is the unit's
 * Environment=/EnvironmentFile=.
 */
export function checkEnv(
  env: ReadonlyMap<string, string> | null,
  knobs: readonly string[],
  podmanRun: PodmanRun | null,
  scriptPath: string,
  direct = false,
): Finding {
  if (knobs.length === 0) return skip(CHECK, "no env knobs declared (contracts.env)");
  if (!env) {
    return direct
      ? fail(CHECK, "could not read the engine process's environment", {
          fix: "check the unit's engine is running; /proc/PID/environ is readable only by root and the unit's User=: verify as one of them",
        })
      : fail(CHECK, "could not read the container's environment", {
          fix: "check the container is running and `podman exec <container> cat /proc/1/environ` works for the SSH user",
        });
  }
  const where = direct ? "the engine's environment" : "the container's environment";
  const present: Record<string, string> = {};
  const missing: string[] = [];
  for (const k of knobs) {
    const v = env.get(k);
    if (v === undefined) missing.push(k);
    else present[k] = mask(k, v)!;
  }
  const evidence = [
    ...Object.entries(present).map(([k, v]) => `${k}=${v}`),
    ...missing.map((k) => `${k}: not in ${where}`),
  ];
  const data = { present, missing };
  if (missing.length) {
    const inScript = missing.map((k) => podmanRun?.env.find((e) => e.name === k)).filter((e) => e !== undefined);
    const fix = direct
      ? `set ${missing.map((k) => `${k}=...`).join(" ")} for the engine in ${scriptPath} (an Environment= line in the unit's [Service], its EnvironmentFile=, or an export before the engine in a serve script) and redeploy`
      : inScript.length
        ? `${scriptPath} sets ${inScript.map((e) => `${e.name} (line ${e.line})`).join(", ")} but the running container lacks it: redeploy so the container is recreated`
        : `add ${missing.map((k) => `-e ${k}=...`).join(" ")} to the podman run in ${scriptPath} and redeploy`;
    return fail(
      CHECK,
      `env knob${missing.length > 1 ? "s" : ""} missing in ${direct ? "the engine's environment" : "the container"}: ${missing.join(", ")}`,
      { evidence, data, fix, file: scriptPath },
    );
  }
  return pass(
    CHECK,
    `all ${knobs.length} env knob(s) present in ${direct ? "the engine's environment" : "the container"}`,
    { evidence, data },
  );
}
