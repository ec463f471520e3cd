// verify.env: each declared env knob landed in the container (a knob the engine never saw makes a
// "parity" arm that is really the default). Values shown, secrets masked.
import { fail, pass, skip, type Finding } from "../report/finding.js";
import type { PodmanRun } from "../script/model.js";
import { mask } from "./secrets.js";

export const CHECK = "verify.env";

export function checkEnv(env: ReadonlyMap<string, string> | null, knobs: readonly string[], podmanRun: PodmanRun | null, scriptPath: string): Finding {
  if (knobs.length === 0) return skip(CHECK, "no env knobs declared (contracts.env)");
  if (!env) return fail(CHECK, "could not read the container's environment", { fix: "check the container is running and `podman exec <container> cat /proc/1/environ` works for the SSH user" });
  const present: Record<string, string> = {};
  const missing: string[] = [];
  for (const k of knobs) {
    const v = env.get(k);
    if (v === undefined) missing.push(k);
    else present[k] = mask(k, v)!;
  }
  const evidence = [...Object.entries(present).map(([k, v]) => `${k}=${v}`), ...missing.map((k) => `${k}: not in the container's environment`)];
  const data = { present, missing };
  if (missing.length) {
    const inScript = missing.map((k) => podmanRun?.env.find((e) => e.name === k)).filter((e) => e !== undefined);
    const fix = inScript.length
      ? `${scriptPath} sets ${inScript.map((e) => `${e.name} (line ${e.line})`).join(", ")} but the running container lacks it: redeploy so the container is recreated`
      : `add ${missing.map((k) => `-e ${k}=...`).join(" ")} to the podman run in ${scriptPath} and redeploy`;
    return fail(CHECK, `env knob${missing.length > 1 ? "s" : ""} missing in the container: ${missing.join(", ")}`, { evidence, data, fix, file: scriptPath });
  }
  return pass(CHECK, `all ${knobs.length} env knob(s) present in the container`, { evidence, data });
}
