// verify.image-flags, before the boot: the image's own --help run on the host (the same image, entrypoint
// and program the launch file runs, with the help flag instead of its arguments; no network, never a
// pull), kept on the host by image ID, and every engine flag of the launch file looked up in it. A flag the
// image lacks fails here, before a restart that the engine would refuse.
import { flagsInHelp, judgeFlags } from "../../domain/engine/help-flags.js";
import type { EngineKind } from "../../domain/engine/kind.js";
import { HOST_STATE_DIR } from "../../domain/host-state.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { fail, pass, skip, warn, type Finding } from "../../domain/report/finding.js";
import { shellJoin, shellQuote } from "../../lib/shell-quote.js";
import type { Host } from "../../ports/host/host.js";

export const CHECK = "verify.image-flags";
const MARK = "@@dg-help";
const HELP_ARGS: Record<EngineKind, string[]> = {
  vllm: ["--help=all"],
  sglang: ["--help"],
  "llama.cpp": ["--help"],
};

export interface HelpRun {
  kind: EngineKind;
  cli: "podman" | "docker";
  image: string;
  /** `<cli> run --rm …` argv: the launch file's entrypoint override and program, then the help flag */
  argv: string[];
  flags: string[];
}

/** How to ask this launch file's image for its help, or why it cannot be asked. */
export function helpRun(script: ServeScript | null): HelpRun | { skip: string } {
  const e = script?.engine;
  if (!e) return { skip: "no engine command in the launch file" };
  const run = e.podmanRun;
  if (!run) return { skip: "the engine runs without a container: there is no image to ask" };
  const image = run.image?.resolved ?? run.image?.text;
  if (!image || run.image?.dynamic) return { skip: "the image is not a literal in the launch file" };
  const cli = run.runtime === "docker" ? "docker" : "podman";
  const entry = run.options.filter((o) => o.name === "--entrypoint" && o.value).at(-1);
  // the words between the image and the engine's own arguments: `vllm serve`, `python3 -m sglang.launch_server`
  const program = run.engineArgs.slice(0, run.engineArgs.length - e.args.length).map((w) => w.resolved ?? w.text);
  const argv = [
    cli,
    "run",
    "--rm",
    "--pull=never",
    "--network=none",
    ...(entry ? [`--entrypoint=${entry.resolvedValue ?? entry.value!}`] : []),
    image,
    ...program,
    ...HELP_ARGS[e.kind],
  ];
  return { kind: e.kind, cli, image, argv, flags: e.flags.map((f) => f.name) };
}

/** One round trip: the image's ID, then its help from the host's cache, else run and kept. */
export function helpScript(h: HelpRun): string {
  const dir = `"$HOME"/${shellQuote(`${HOST_STATE_DIR}/help`)}`;
  const kind = h.kind.replace(/\W/g, "");
  return [
    `d=$(${h.cli} image inspect --format '{{.Id}}' ${shellQuote(h.image)} 2>/dev/null | head -n1)`,
    `[ -n "$d" ] || { echo "${MARK} none"; exit 0; }`,
    `f=${dir}/"\${d#sha256:}-${kind}.txt"`,
    `if [ -s "$f" ]; then echo "${MARK} cached $d"; cat "$f"; exit 0; fi`,
    `mkdir -p ${dir} && t="$f.$$"`,
    `timeout 300 ${shellJoin(h.argv)} >"$t" 2>&1; rc=$?`,
    `if [ "$rc" = 0 ] && [ -s "$t" ]; then mv -f "$t" "$f"; echo "${MARK} fresh $d"; cat "$f"; else echo "${MARK} failed $rc $d"; head -c 4000 "$t"; rm -f "$t"; fi`,
  ].join("\n");
}

export interface HelpAnswer {
  state: "none" | "cached" | "fresh" | "failed";
  imageId: string | null;
  exitCode: number | null;
  text: string;
}

export function parseHelpAnswer(stdout: string): HelpAnswer | null {
  const at = stdout.indexOf(`${MARK} `);
  if (at < 0) return null;
  const nl = stdout.indexOf("\n", at);
  const head = stdout.slice(at + MARK.length + 1, nl < 0 ? undefined : nl).split(" ");
  const text = nl < 0 ? "" : stdout.slice(nl + 1);
  const state = head[0] as HelpAnswer["state"];
  if (state === "failed") return { state, exitCode: Number(head[1]), imageId: head[2] ?? null, text };
  return { state, exitCode: null, imageId: head[1] ?? null, text };
}

/** The finding: fail stops the deploy before anything on the host changes. */
export function judgeHelp(h: HelpRun, a: HelpAnswer | null, error: string | null): Finding {
  if (!a)
    return warn(CHECK, `could not ask ${h.image} for its flags: ${error ?? "no answer"}`, {
      fix: "the flags were not checked before the boot; the engine checks them itself: read deploy.diagnosis if it refuses",
    });
  if (a.state === "none")
    return skip(
      CHECK,
      `${h.image} is not on the host yet (the restart pulls it): its flags are checked from the next deploy on`,
    );
  const id = (a.imageId ?? "").replace(/^sha256:/, "").slice(0, 12);
  const cmd = h.argv.slice(4).join(" ");
  if (a.state === "failed")
    return warn(CHECK, `${h.image}'s help exited ${a.exitCode}: its flags were not checked`, {
      evidence: [`${h.cli} run … ${cmd}`, ...a.text.split("\n").slice(0, 8)],
      fix: "the help command failed on the host (see the evidence); the engine checks its flags itself at boot",
    });
  const known = flagsInHelp(a.text);
  if (known.size < 5)
    return warn(CHECK, `${h.image}'s help lists ${known.size} flags: not read as ${h.kind}'s help`, {
      evidence: a.text.split("\n").slice(0, 8),
      fix: "check the launch file starts the engine the gate thinks it does; its flags were not checked",
    });
  const unknown = judgeFlags(h.kind, h.flags, known);
  const evidence = [
    `${cmd} (image ${id}, ${a.state === "cached" ? "help cached on the host" : "help read now"}): ${known.size} flags`,
  ];
  const data = { image: h.image, imageId: a.imageId, cached: a.state === "cached", checked: h.flags.length, unknown };
  if (!unknown.length)
    return pass(CHECK, `every engine flag of the launch file (${h.flags.length}) is in ${h.image}'s own help`, {
      evidence,
      data,
    });
  return fail(
    CHECK,
    `${h.image} does not know ${unknown.map((u) => u.flag).join(", ")}: the engine would refuse to boot`,
    {
      evidence: [...evidence, ...unknown.map((u) => `${u.flag}: ${u.known ?? "not in this image's help"}`)],
      data,
      fix: `nothing was changed on the host: ${unknown.map((u) => (u.known ? `${u.flag}: ${u.known}` : `${u.flag}: check its spelling, or the image version that has it`)).join("; ")}; fix the launch file and deploy again`,
    },
  );
}

export async function checkImageFlags(
  host: Host,
  script: ServeScript | null,
  progress: (s: string) => void,
): Promise<Finding> {
  const h = helpRun(script);
  if ("skip" in h) return skip(CHECK, h.skip);
  progress(`reading ${h.image}'s own flags on the host`);
  try {
    const r = await host.runShell(helpScript(h), { timeoutMs: 330_000 });
    return judgeHelp(
      h,
      parseHelpAnswer(r.stdout),
      r.timedOut ? "the host did not answer within 330 s" : r.stderr.trim() || null,
    );
  } catch (e) {
    return judgeHelp(h, null, (e as Error).message);
  }
}
