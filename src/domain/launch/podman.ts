// Reads `podman run [options] IMAGE [engine argv]`: the options podman takes (so the image is found
// where podman finds it), the env, mounts, devices and limits, and the engine argv after the image.
import type { Command, Flag, PodmanRun, Word } from "./model.js";
import { readFlags } from "./flags.js";

// podman run options that take a value (podman 4/5 `podman run --help`), plus docker's own (`--runtime nvidia`,
// `--storage-opt`...); every other option is a switch.
const VALUE_OPTIONS = new Set(
  `add-host annotation arch attach authfile blkio-weight blkio-weight-device cap-add cap-drop
cgroup-conf cgroup-parent cgroupns cgroups chrootdirs cidfile conmon-pidfile cpu-period cpu-quota cpu-rt-period
cpu-rt-runtime cpu-shares cpus cpuset-cpus cpuset-mems decryption-key detach-keys device device-cgroup-rule
device-read-bps device-read-iops device-write-bps device-write-iops dns dns-option dns-search entrypoint env env-file
env-merge expose gidmap gpus group-add group-entry health-cmd health-interval health-log-destination health-max-log-count
health-max-log-size health-on-failure health-retries health-start-period health-startup-cmd health-startup-interval
health-startup-retries health-startup-success health-startup-timeout health-timeout hostname hosts-file hostuser
image-volume init-path ip ip6 ipc label label-file log-driver log-opt mac-address memory memory-reservation memory-swap
memory-swappiness mount name network net network-alias oom-score-adj os passwd-entry personality pid pidfile pids-limit
platform pod pod-id-file preserve-fd preserve-fds publish pull requires restart retry retry-delay sdnotify seccomp-policy
secret security-opt shm-size shm-size-systemd stop-signal stop-timeout subgidname subuidname sysctl systemd timeout tmpfs
tz uidmap ulimit umask unsetenv user userns uts variant volume volumes-from workdir
runtime storage-opt isolation cpu-count cpu-percent kernel-memory link link-local-ip volume-driver domainname`.split(
    /\s+/,
  ),
);
const SHORT_VALUE: Record<string, string> = {
  e: "env",
  v: "volume",
  p: "publish",
  a: "attach",
  c: "cpu-shares",
  h: "hostname",
  l: "label",
  m: "memory",
  u: "user",
  w: "workdir",
};
const SHORT_SWITCH: Record<string, string> = { d: "detach", i: "interactive", t: "tty", q: "quiet", P: "publish-all" };

/** run's own switches that take no value (the value-taking ones are VALUE_OPTIONS) */
const LONG_SWITCHES = new Set(
  "rm detach interactive tty privileged init read-only replace quiet publish-all sig-proxy no-healthcheck".split(" "),
);

/** `--gpus`, `-e`, `--rm`: an option of podman/docker run itself, not the engine's. */
function runOption(text: string): boolean {
  const long = /^--([\w-]+)/.exec(text)?.[1];
  if (long) return VALUE_OPTIONS.has(long) || LONG_SWITCHES.has(long);
  const letter = /^-(\w)/.exec(text)?.[1];
  return letter !== undefined && (letter in SHORT_VALUE || letter in SHORT_SWITCH);
}

/** Splits `SRC:DST[:OPTS]` on colons outside ${...}. */
export function splitColons(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "$" && text[i + 1] === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    if (c === ":" && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** The podman options (before the image) and the index of the image word. */
function readOptions(args: readonly Word[]): { options: Flag[]; imageAt: number } {
  const options: Flag[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (t === "--") {
      i++;
      break;
    }
    // an unset `$extra_args` followed by more options holds options (word-split by the shell), not the image
    const held = w.dynamic && w.resolved === undefined && /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(t);
    // (followed by an engine's flag instead, `"${IMG}" --model ...`, the variable is the image)
    if (held && args[i + 1]?.text.startsWith("-") && runOption(args[i + 1]!.text)) continue;
    if (!t.startsWith("-") || t === "-") break;
    // `from` is the word holding the value; `skip` drops the option text in front of it (`--name=`, `-p`)
    const flag = (name: string, value: string | null, from: Word = w, skip = (r: string) => r): Flag => {
      const f: Flag = { name, value, line: w.line, optional: w.optional };
      const resolved = from.resolved ?? (from.dynamic ? undefined : from.text);
      if (value !== null && resolved !== undefined) f.resolvedValue = skip(resolved);
      return f;
    };
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq > 0 ? t.slice(2, eq) : t.slice(2);
      if (eq > 0) options.push(flag(`--${name}`, t.slice(eq + 1), w, (r) => r.slice(r.indexOf("=") + 1)));
      else if (VALUE_OPTIONS.has(name)) {
        const v = args[++i];
        options.push(v ? flag(`--${name}`, v.text, v) : flag(`--${name}`, null));
      } else options.push(flag(`--${name}`, null));
      continue;
    }
    const letters = t.slice(1);
    if ([...letters].every((ch) => ch in SHORT_SWITCH)) {
      for (const ch of letters) options.push(flag(`--${SHORT_SWITCH[ch]}`, null));
      continue;
    }
    const long = SHORT_VALUE[letters[0]!];
    if (long) {
      const attached = letters.slice(1).replace(/^=/, "");
      if (attached) options.push(flag(`--${long}`, attached, w, (r) => r.slice(2).replace(/^=/, "")));
      else {
        const v = args[++i];
        options.push(v ? flag(`--${long}`, v.text, v) : flag(`--${long}`, null));
      }
      continue;
    }
    options.push(flag(t, null));
  }
  return { options, imageAt: i };
}

export function readPodmanRun(
  command: Command,
  args: readonly Word[],
  runtime: PodmanRun["runtime"] = "podman",
  create = false,
): PodmanRun {
  const { options, imageAt } = readOptions(args);
  const valuesOf = (name: string) => options.filter((o) => o.name === name && o.value !== null);
  const last = (name: string) => valuesOf(name).at(-1)?.value ?? null;
  const env = valuesOf("--env").map((o) => {
    const eq = o.value!.indexOf("=");
    return {
      name: eq > 0 ? o.value!.slice(0, eq) : o.value!,
      value: eq > 0 ? o.value!.slice(eq + 1) : null,
      line: o.line,
    };
  });
  const volumes = valuesOf("--volume").map((o) => {
    const [source = "", target = "", ...rest] = splitColons(o.value!);
    const volume: PodmanRun["volumes"][number] = {
      source,
      target,
      options: rest.length ? rest.join(":") : null,
      line: o.line,
    };
    if (o.resolvedValue !== undefined) volume.resolvedSource = o.resolvedValue.split(":")[0]!;
    return volume;
  });
  for (const o of valuesOf("--mount")) {
    const kv = Object.fromEntries(
      o.value!.split(",").map((p) => {
        const eq = p.indexOf("=");
        return eq > 0 ? [p.slice(0, eq), p.slice(eq + 1)] : [p, ""];
      }),
    );
    const source = kv.source ?? kv.src ?? "";
    const target = kv.target ?? kv.destination ?? kv.dst ?? "";
    if (source || target)
      volumes.push({
        source,
        target,
        options: kv.ro !== undefined || kv.readonly === "true" ? "ro" : null,
        line: o.line,
      });
  }
  const image = args[imageAt] ?? null;
  const engineArgs = args.slice(imageAt + 1);
  const { flags, positional } = readFlags(engineArgs);
  return {
    command,
    runtime,
    create,
    rm: options.some((o) => o.name === "--rm"),
    replace: options.some((o) => o.name === "--replace" && o.value !== "false"),
    options,
    env,
    volumes,
    devices: valuesOf("--device").map((o) => ({ path: splitColons(o.value!)[0]!, line: o.line })),
    ulimits: valuesOf("--ulimit").map((o) => ({ value: o.value!, line: o.line })),
    ipc: last("--ipc"),
    shmSize: last("--shm-size"),
    name: last("--name"),
    publish: valuesOf("--publish").map((o) => o.value!),
    image,
    engineArgs,
    engineFlags: flags,
    positional,
  };
}
