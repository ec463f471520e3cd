// The human half of a failure under the engine: which layer failed and the one thing to change, named.
// What the journal alone cannot say (which install: entry writes a path, who holds a port, whether the
// unit's user exists) comes in as optional context from the deploy stage. Pure.
import type { BelowMatch } from "./below-engine.js";
import type { EngineKind } from "../engine/kind.js";
import { editDistance } from "../../lib/did-you-mean.js";
import { kubeAdvice } from "./kube-advice.js";

export interface InstallEntry {
  from: string;
  to: string;
  mode: string;
}

export interface BelowContext {
  /** the endpoint's install: entries, to name the repo file behind a host path */
  install?: readonly InstallEntry[];
  /** the config file the fix points at */
  configFile?: string;
  /** host facts looked up after the classification (deploy only) */
  portOwner?: string | null;
  localImages?: readonly string[];
  unitUser?: string | null;
  service?: string;
  /** the engine that wrote the log, when a line said: whose --help lists the flags */
  engine?: EngineKind | null;
}

const HELP: Record<EngineKind, string> = {
  vllm: "vllm serve --help lists the flags this image's vLLM accepts",
  sglang: "python -m sglang.launch_server --help lists the flags this image's SGLang accepts",
  "llama.cpp": "llama-server --help lists the flags this image's llama.cpp accepts",
};

const LAYER_NAME: Record<BelowMatch["layer"], string> = {
  engine: "the engine's argument parser",
  podman: "podman",
  docker: "docker",
  crun: "the OCI runtime (crun/runc)",
  runc: "the OCI runtime (runc)",
  systemd: "systemd",
  bash: "the serve script (bash)",
  kubernetes: "Kubernetes",
};

export function layerName(m: BelowMatch): string {
  return LAYER_NAME[m.layer];
}

function installOf(path: string | undefined, ctx: BelowContext): InstallEntry | null {
  if (!path) return null;
  return ctx.install?.find((e) => e.to === path) ?? null;
}

function scriptName(file: string | undefined, ctx: BelowContext): string {
  const e = installOf(file, ctx);
  return e ? `${e.from} (installed as ${e.to})` : (file ?? "the serve script");
}

const cfg = (ctx: BelowContext) => ctx.configFile ?? "deploy-gate.yml";

/** The closest local image name: a typo of a loaded image is the usual cause. */
function nearestImage(image: string, local: readonly string[] | undefined): string | null {
  if (!local || local.length === 0) return null;
  const base = (s: string) =>
    s
      .replace(/:[\w.-]+$/, "")
      .replace(/^(?:localhost|docker\.io)\//, "")
      .replace(/^library\//, "");
  const want = base(image);
  let best: string | null = null;
  let bestD = Infinity;
  for (const l of local) {
    const d = editDistance(want, base(l));
    if (d < bestD) [best, bestD] = [l, d];
  }
  return best !== null && bestD <= Math.max(3, Math.floor(want.length / 3)) ? best : null;
}

/** pydantic's `Value error,` line: the flag it is about, when it names one vLLM reads from the command line. */
function configValue(msg: string): { summary: string; fix: string } {
  const short = msg.length > 240 ? `${msg.slice(0, 240)}…` : msg;
  const flag =
    /\b(max_model_len|context_length|max_lora_rank|max_num_batched_tokens|max_num_seqs|gpu_memory_utilization|tensor_parallel_size|quantization|dtype|kv_cache_dtype|served_model_name|tokenizer)\b/.exec(
      msg,
    )?.[1] ?? (/Bfloat16 is only supported/.test(msg) ? "dtype" : undefined);
  const feature =
    /^(Prefix caching|Chunked prefill|Speculative decoding|LoRA|CUDA graphs?) (?:is|are) not (?:yet )?supported/.exec(
      msg,
    )?.[1];
  if (feature) {
    const off: Record<string, string> = {
      "Prefix caching": "--enable-prefix-caching (or pass --no-enable-prefix-caching)",
      "Chunked prefill": "--enable-chunked-prefill",
      "Speculative decoding": "--speculative-config",
      LoRA: "--enable-lora",
      "CUDA graph": "CUDA graphs (--enforce-eager)",
      "CUDA graphs": "CUDA graphs (--enforce-eager)",
    };
    return {
      summary: `this engine does not support ${feature.toLowerCase()} for this model: ${short}`,
      fix: `Turn off ${off[feature] ?? feature} in the serve script for this model.`,
    };
  }
  return {
    summary: `the engine refused its configuration before booting: ${short}`,
    fix: flag
      ? `Correct --${flag.replace(/_/g, "-")} in the serve script (the decisive line says what it must be).`
      : "Correct the engine flag the decisive line names in the serve script.",
  };
}

export function belowAdvice(m: BelowMatch, ctx: BelowContext = {}): { summary: string; fix: string } {
  const f = m.facts;
  if (m.layer === "kubernetes") return kubeAdvice(m);
  const unit = ctx.service ?? f.unit ?? "the unit";
  switch (f.what) {
    case "missing-mount-source":
      return {
        summary: `${layerName(m)} refused the bind mount: its source ${f.path} does not exist on the host`,
        fix: `Create ${f.path} on the host (mkdir -p ${f.path}, then put the model files there), or fix the -v source in the serve script; a cache dir needs mkdir -p before podman run.`,
      };
    case "mount-permission":
      return {
        summary: `${layerName(m)} may not read the bind mount source ${f.path}`,
        fix: `Give the user the unit runs as access to ${f.path} (ls -ld ${f.path}; rootless podman runs as that user), or mount another path.`,
      };
    case "missing-device":
      return {
        summary: `${layerName(m)} could not add the device ${f.path}: it does not exist on the host`,
        fix: `Check the GPU driver on the host (ls -l ${f.path}); drop --device ${f.path} from the serve script if this host has no such device.`,
      };
    case "gpu-driver":
      return {
        summary: "the NVIDIA container toolkit could not reach the host's GPU driver (not loaded or not installed)",
        fix: "On the host: nvidia-smi must work first (load the driver: modprobe nvidia, or reinstall it after a kernel update, then reboot); the container starts once it does.",
      };
    case "exec-format":
      return {
        summary: `${layerName(m)} could not run the image's program: it is built for another CPU architecture`,
        fix: "Use the image built for this host's architecture (uname -m; e.g. --platform linux/amd64 or the -arm64 tag), or rebuild it for this host.",
      };
    case "missing-gpu-runtime":
      return {
        summary: `${layerName(m)} cannot give the container a GPU${f.path ? ` (${f.path})` : ""}`,
        fix: "Install and configure the GPU container toolkit on the host (nvidia-ctk cdi generate for podman's CDI), or pass the devices with --device.",
      };
    case "image-not-found": {
      const near = nearestImage(f.image!, ctx.localImages);
      const have =
        ctx.localImages && ctx.localImages.length > 0
          ? ` Images on the host: ${ctx.localImages.slice(0, 6).join(", ")}.`
          : "";
      return {
        summary: `${layerName(m)} could not find or pull the image ${f.image}`,
        fix: near
          ? `The host has ${near}: fix the image name in the serve script (${f.image} -> ${near}).`
          : `Load the image on the host (podman load -i FILE, or podman pull ${f.image} with a fully qualified name and registry access), or fix the image name in the serve script.${have}`,
      };
    }
    case "port-in-use":
      if (m.layer === "engine") {
        return {
          summary: `the engine could not listen on ${f.port ? `port ${f.port}` : "its --port"}: another process already listens on it (an earlier engine still alive, another user's server, or the container shares the host's network)`,
          fix: `${ctx.portOwner ? `Port ${f.port} is held by ${ctx.portOwner}: stop that (by its PID or container name)` : `Find the holder (ss -ltnp 'sport = :${f.port ?? "PORT"}' on the host) and stop it`}, or start the engine on another --port in the serve script.`,
        };
      }
      return {
        summary: `${layerName(m)} could not publish port ${f.port}: another process already listens on it`,
        fix: ctx.portOwner
          ? `Port ${f.port} is held by ${ctx.portOwner}: stop that (by its PID or container name) or publish the engine on another port in the serve script (-p).`
          : `Find the holder (ss -ltnp 'sport = :${f.port}' on the host) and stop it, or publish the engine on another port in the serve script (-p).`,
      };
    case "unknown-option":
      return {
        summary: `${layerName(m)} refused an option it does not know: ${f.option}`,
        fix: `Remove or correct ${f.option} in the serve script's podman run line (podman run --help lists what this host's podman accepts).`,
      };
    case "bad-option-value":
      return {
        summary: `${layerName(m)} refused the value "${f.argument}" of ${f.option}`,
        fix: `Correct the value of ${f.option} in the serve script.`,
      };
    case "name-in-use":
      return {
        summary: `${layerName(m)} could not create the container: the name ${f.container} is taken by a leftover container`,
        fix: `Remove the leftover first: add \`podman rm -f ${f.container}\` before podman run in the serve script (or ExecStartPre=-/usr/bin/podman rm -f ${f.container}), or use podman run --replace.`,
      };
    case "oci-command-not-found":
      return {
        summary: `the OCI runtime could not find the container's command ${f.command}`,
        fix: `The image has no ${f.command} on its PATH: fix the command (or --entrypoint) after the image name in the serve script, or use the image that ships it.`,
      };
    case "oci-permission-denied":
      return {
        summary: "the OCI runtime was denied running the container (permission denied)",
        fix: "Check the container's entrypoint is executable in the image, and the host's SELinux/AppArmor labels on mounted paths (:z/:Z on -v).",
      };
    case "oci-error":
    case "runtime":
      return {
        summary: `${layerName(m)} could not start the container`,
        fix: "Fix what the decisive line names in the serve script's podman run line, then deploy again.",
      };
    case "exec": {
      const e = installOf(f.executable, ctx);
      if (f.errno === "Permission denied") {
        return {
          summary: `systemd could not execute ${f.executable}: permission denied (not executable)`,
          fix: e
            ? `Set mode: "0755" on the install: entry ${e.from} -> ${e.to} in ${cfg(ctx)} (it is "${e.mode}").`
            : `Make ${f.executable} executable (install it with mode 0755), or start it through bash in ExecStart=.`,
        };
      }
      if ((e || f.step === "execve") && f.errno === "No such file or directory") {
        // install: wrote the file, so what is missing is its #! interpreter (or a CRLF made it `bash\r`)
        return {
          summary: `systemd could not execute ${f.executable}: its #! interpreter is missing on the host`,
          fix: `Fix the first line of ${e?.from ?? f.executable} (the #! interpreter must exist on the host, e.g. #!/bin/bash) and save it with LF line endings, not CRLF.`,
        };
      }
      if (!f.errno && f.status) {
        // systemctl status's 203/EXEC carries no errno: missing, not executable and a missing #! interpreter look alike
        return {
          summary: `systemd could not execute ${f.executable ?? "the unit's ExecStart"} (status=203/EXEC)`,
          fix: `Check that ${f.executable ?? "ExecStart='s path"} exists on the host, is executable (mode 0755 on its install: entry) and starts with a #! line whose interpreter exists, saved with LF line endings; journalctl -u ${unit} shows systemd's own line saying which.`,
        };
      }
      const writes =
        ctx.install?.filter((x) => x.to !== f.executable && /\.(?:sh|bash)$|\/bin\//.test(x.to)).map((x) => x.to) ?? [];
      return {
        summary: `systemd could not execute ${f.executable ?? "the unit's ExecStart"}${f.errno ? `: ${f.errno.toLowerCase()}` : ""}`,
        fix:
          f.executable && !f.executable.startsWith("/")
            ? `ExecStart=${f.executable} is not on systemd's PATH: use the absolute path of the script in the unit file.${writes.length ? ` install: writes ${writes.join(", ")}.` : ""}`
            : `ExecStart= names ${f.executable ?? "a path"} that does not exist on the host${writes.length ? `; install: writes ${writes.join(", ")}: make ExecStart= and the install: entry's to: the same path` : ": fix ExecStart= in the unit file or add an install: entry that writes it"}.`,
      };
    }
    case "user":
      return {
        summary: `systemd could not run ${unit} as its User=${ctx.unitUser ? ctx.unitUser : ""}: the user does not exist on the host`,
        fix: `Create the user on the host (useradd --system ${ctx.unitUser ?? "NAME"}) or fix User= in the unit file.`,
      };
    case "step":
      return {
        summary: `systemd could not run ${unit}: failed at step ${f.step}`,
        fix: `Fix the unit setting behind step ${f.step} (systemd.exec(5)); systemctl status ${unit} shows the same line.`,
      };
    case "unit-not-found": {
      // a quadlet installed but no unit generated from it: the generator (podman >= 4.4) is missing or failed
      const quadlet = ctx.install?.find((x) => /\.(?:container|kube|pod)$/.test(x.to));
      if (quadlet) {
        return {
          summary: `systemd has no unit ${f.unit}: the quadlet ${quadlet.to} that install: wrote generated none`,
          fix: `Quadlets need podman 4.4 or later on the host (podman --version), whose generator makes ${f.unit} at systemctl daemon-reload; check /usr/lib/systemd/system-generators/podman-system-generator --dryrun for its errors, or install a plain unit instead.`,
        };
      }
      return {
        summary: `systemd has no unit ${f.unit}`,
        fix: `service: in ${cfg(ctx)} names ${f.unit}, which the host does not have: install the unit file to /etc/systemd/system/${f.unit} (an install: entry) or correct service:.`,
      };
    }
    case "environment-file":
      return {
        summary: `systemd could not load an EnvironmentFile= of ${f.unit} (${f.errno?.toLowerCase()}): the unit never ran its engine`,
        fix: `Create the file the unit's EnvironmentFile= names on the host (or add it to install:), or write EnvironmentFile=-/path so a missing file is allowed.`,
      };
    case "bad-unit-file":
      return {
        summary: `systemd refused the unit file of ${f.unit}`,
        fix: `Fix the unit file (systemd-analyze verify ${f.unit} shows every bad line).`,
      };
    case "start-timeout":
      return {
        summary: `systemd stopped ${f.unit} because its ${f.step} did not finish within TimeoutStartSec= (the engine's own traceback after it is the SIGTERM, not the cause)`,
        fix: `Give the boot the time it needs: TimeoutStartSec= above the longest boot (weights, compile, graphs; e.g. TimeoutStartSec=30min) in ${f.unit}'s [Service]; with Type=notify, the engine must also send READY=1, which vLLM does not: use Type=simple or Type=exec.`,
      };
    case "start-limit-hit":
      return {
        summary: `systemd refused to start ${unit}: start-limit-hit (it was restarted too often before this deploy)`,
        fix: `systemctl reset-failed ${unit}, then deploy again; move StartLimitIntervalSec=/StartLimitBurst= to [Unit] if they are in [Service].`,
      };
    case "unbound-variable":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.variable} is not set (set -u)`,
        fix: `Set ${f.variable} where the unit runs ${scriptName(f.file, ctx)}: give it a default in the script (${f.variable}="\${${f.variable}:-VALUE}") or set it in the unit (Environment=${f.variable}=VALUE or EnvironmentFile=); a login shell's variables are not in systemd's environment.`,
      };
    case "crlf":
      return {
        summary: `the serve script has Windows line endings: its #! line asks for "${f.command}\\r", which does not exist`,
        fix: "Save the script with LF line endings: dos2unix FILE or sed -i 's/\\r$//' FILE, and keep it so (a .gitattributes line `*.sh text eol=lf`, or git config core.autocrlf input).",
      };
    case "interpreter-missing":
      return {
        summary: `bash could not run ${f.file}: the interpreter its #! line names does not exist`,
        fix: `Check the first line of ${f.file}: the #! interpreter must exist on the host (e.g. #!/bin/bash), and the file must have LF line endings (a CRLF file asks for "bash\\r"): dos2unix ${f.file} or sed -i 's/\\r$//' ${f.file}.`,
      };
    case "trapped-error":
      return {
        summary: `the serve script stopped at its line ${f.line}: a command there exited with status ${f.errno} (the script's ERR trap said so)`,
        fix: `Read the command at line ${f.line} of the serve script and the lines the log shows just before this one: they are that command's own error.`,
      };
    case "command-not-found":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.command} is not a command on the unit's PATH`,
        fix: `Fix ${f.command} at line ${f.line} of ${scriptName(f.file, ctx)} (a typo, or install it); systemd's PATH is /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin, use an absolute path otherwise.`,
      };
    case "script-path":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.path}: ${f.errno?.toLowerCase()}`,
        fix: `Create ${f.path} on the host or fix line ${f.line} of ${scriptName(f.file, ctx)}.`,
      };
    case "runtime-syntax":
      return {
        summary: `the serve script failed at line ${f.line} at run time (bash -n cannot see this one)`,
        fix: `Fix line ${f.line} of ${scriptName(f.file, ctx)}: the decisive line is bash's own error.`,
      };
    case "usage":
      return {
        summary: `the engine refused its command line before booting (usage error${f.argument ? ` on ${f.argument}` : ""})`,
        fix: `Correct ${f.argument ?? "the engine arguments"} in the serve script's engine arguments (${HELP[ctx.engine ?? "vllm"]}).`,
      };
    case "config-value":
      return configValue(f.argument ?? "");
    case "missing-flag":
      return {
        summary: `the model needs ${f.argument}, which the serve script does not pass`,
        fix: `Add ${f.argument} to the engine arguments in the serve script: the model ships its own Python code, which the engine runs only with this flag (read that code first: it runs with the engine's rights).`,
      };
    case "config-validation":
      return {
        summary: `the engine refused its configuration (${f.argument} validation) before booting`,
        fix: "Correct the engine flags the validation error names in the serve script.",
      };
    default:
      return { summary: `${layerName(m)} failed`, fix: "Fix what the decisive line names, then deploy again." };
  }
}
