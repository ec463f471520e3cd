// The human half of a diagnosis: one summary and one fix per class, with the numbers in them.
import {
  ARCH_UNSUPPORTED,
  INSTALL,
  CHAT_TEMPLATE,
  GPU_FAULT,
  GPU_UNSUPPORTED,
  HF_OFFLINE,
  HOST_OOM,
  NCCL,
  NCCL_CAUSE,
  NO_GPU,
  PARSER,
  PEER_ACCESS,
  RAY_SHM,
} from "../engine/vllm/failures.js";
import { LLAMA_LOAD_ERROR } from "../engine/peers.js";
import { gapText, giB } from "./oom.js";
import { authMismatchAdvice } from "./auth-mismatch.js";
import { peerAdvice } from "./peer-advice.js";
import type { AdviceFacts, DiagnosisClass } from "./types.js";
import type { Attempt } from "./unit-events.js";

function oomAdvice(f: AdviceFacts): [string, string] {
  const d = f.decisive ?? "";
  if (HOST_OOM.test(d)) {
    return [
      "the kernel's OOM killer ended the engine: host RAM (or the unit's memory limit) ran out, not GPU memory",
      "Raise the unit's MemoryMax= / the container's --memory, or lower the engine's host-RAM use (--swap-space, --cpu-offload-gb, KV offloading, fewer API server processes); journalctl -k shows what else held memory.",
    ];
  }
  if (/error: out of memory/.test(d) && !f.oom) {
    return [
      "CUDA error: out of memory without an allocation size (typically pin_memory of host buffers)",
      "This is usually the memlock limit, not VRAM: run the container with --ulimit memlock=-1:-1, or give a unit that runs the engine itself LimitMEMLOCK=infinity (and raise the host's memlock via PAM limits).",
    ];
  }
  if (/warming up sampler/.test(d)) {
    return ["out of memory while warming up the sampler", "Lower --max-num-seqs or --gpu-memory-utilization."];
  }
  if (/Free memory on device/.test(d)) {
    return [
      "the GPU has less free memory at startup than --gpu-memory-utilization asks for (another process holds VRAM)",
      "Free the GPU (nvidia-smi / rocm-smi shows the holder; a previous engine still stopping is common) or lower --gpu-memory-utilization to fit the free memory.",
    ];
  }
  if (/Failed to load model - not enough GPU memory/.test(d)) {
    return [
      "the weights do not fit in the GPU memory budget",
      "Lower --gpu-memory-utilization to free memory for weights, raise --tensor-parallel-size, or use a quantized checkpoint.",
    ];
  }
  const o = f.oom;
  const gap = gapText(o);
  if (f.phase === "capturing-graphs") {
    return [
      `GPU out of memory: ${gap}, while capturing CUDA graphs`,
      `${o ? `Asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free (short ${giB(o.shortfallGiB)} GiB): g` : "G"}raph capture needs memory outside the KV pool: lower --gpu-memory-utilization (or pin --kv-cache-memory-bytes) to leave room, capture fewer sizes (--max-num-seqs, compilation_config cudagraph_capture_sizes), or --enforce-eager to skip graphs.`,
    ];
  }
  return [
    `GPU out of memory: ${gap}`,
    `${o ? `Asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free (short ${giB(o.shortfallGiB)} GiB): l` : "L"}ower --gpu-memory-utilization / --max-num-seqs / --max-model-len, or pin the KV pool with --kv-cache-memory-bytes. A plan line that printed fine does not mean the boot fits.`,
  ];
}

function loopText(attempts: Attempt[], failedExits = 0): string {
  const ended = attempts.filter((a) => a.endedAt !== null);
  // a window that starts after the unit's `Started` line (systemctl status, a journal tail) shows only the exits
  if (ended.length === 0 && failedExits > 0)
    return `${failedExits} failed exit(s) shown, their starts before the window`;
  const durations = ended.map((a) => (a.durationS === null ? "?" : `${a.durationS}s`)).join(", ");
  return `${ended.length} attempt(s) ended${durations ? ` after ${durations}` : ""}`;
}

export function advice(cls: DiagnosisClass, f: AdviceFacts): { summary: string; fix: string | null } {
  // (a llama.cpp load error another program relayed, Ollama's, names llama.cpp's fix though no llama.cpp line said so)
  const engine = f.engine ?? (f.decisive && LLAMA_LOAD_ERROR.test(f.decisive) ? "llama.cpp" : null);
  const peer = engine === "sglang" || engine === "llama.cpp" ? peerAdvice(cls, engine, f) : null;
  if (peer) return peer;
  const unit = f.unit ?? "the unit";
  switch (cls) {
    case "oom": {
      const [summary, fix] = oomAdvice(f);
      return { summary, fix };
    }
    case "kv-insufficient": {
      const k = f.kv;
      return {
        summary: !k
          ? "no memory left for the KV cache"
          : k.capacityTokens
            ? `KV cache too small for one max-length request: max model len ${k.maxModelLen} tokens, the cache holds ${k.capacityTokens}`
            : `KV cache too small for one max-length request: needs ${giB(k.neededGiB)} GiB, ${giB(k.availableGiB)} GiB available`,
        fix: `Raise --gpu-memory-utilization, lower --max-model-len${k?.estimatedMaxLen ? ` (the engine estimates ${k.estimatedMaxLen} fits)` : ""}, or pin --kv-cache-memory-bytes. Under expert offload utilization buys arena, not KV: pin the pool.`,
      };
    }
    case "dynamo-shape": {
      const d = f.dynamo;
      const what = d?.symbol
        ? `${d.symbol} specialised to the constant ${d.constant ?? "?"}`
        : "a shape was specialised to a constant";
      return {
        summary: `torch.compile/dynamo shape specialisation: ${what}`,
        fix: "Shape specialisation, not memory: try --enforce-eager (skips torch.compile and CUDA graphs, a real cost), VLLM_DISABLE_COMPILE_CACHE=1 or VLLM_USE_AOT_COMPILE=1, or change --max-num-seqs so the compiled shapes fit. Do not add memory.",
      };
    }
    case "engine-init-failed": {
      if (f.decisive && PEER_ACCESS.test(f.decisive)) {
        return {
          summary: `the engine's GPUs cannot reach each other's memory (no peer access): ${f.decisive}`,
          fix: "These GPUs have no P2P path (PCIe topology, a VM, consumer cards; `nvidia-smi topo -m` shows the links): start the engine with --disable-custom-all-reduce (vLLM and SGLang: the custom all-reduce needs peer access) and set NCCL_P2P_DISABLE=1 so NCCL goes through host memory.",
        };
      }
      if (f.decisive && RAY_SHM.test(f.decisive)) {
        return {
          summary: `Ray's object store wants more shared memory than /dev/shm holds: ${f.decisive}`,
          fix: "Give the container more /dev/shm: --ipc=host, or --shm-size above the request the line names (Kubernetes: an emptyDir with medium: Memory mounted at /dev/shm); on the host itself, free or enlarge /dev/shm.",
        };
      }
      if (f.decisive && NCCL_CAUSE.test(f.decisive)) {
        return {
          summary: `NCCL could not connect the engine's ranks: ${f.decisive}`,
          fix: "NCCL found no network interface to bootstrap on (or could not reach the other rank): set NCCL_SOCKET_IFNAME to the interface the ranks share (ip -br addr; e.g. NCCL_SOCKET_IFNAME=eth0, or lo on one host), and in a container use --network host or give it that interface; read NCCL_DEBUG=INFO output for the interface it tried.",
        };
      }
      if (f.decisive && NCCL.test(f.decisive)) {
        return {
          summary: `NCCL/distributed failure between the engine's workers: ${f.decisive}`,
          fix: "NCCL needs shared memory and peer access: run a container with --ipc=host (or a large --shm-size; an engine the unit runs itself uses the host's /dev/shm: check its size), check the GPUs see each other (NCCL_P2P_DISABLE=1 to test), and read NCCL_DEBUG=INFO output for the failing rank.",
        };
      }
      if (f.decisive && GPU_FAULT.test(f.decisive)) {
        const bus = /Xid|fallen off the bus/.test(f.decisive);
        return {
          summary: bus
            ? `the GPU failed under the engine (driver: ${f.decisive})`
            : `the engine crashed on a GPU fault: ${f.decisive}`,
          fix: bus
            ? "A hardware or driver fault, not the serve script: read dmesg/journalctl -k for the Xid, reset the GPU (nvidia-smi -r) or reboot the host, and check its power and cooling before redeploying."
            : "A crash inside a GPU kernel, not a memory limit: note the request that triggered it, try the previous image or without the newest kernel flags (CUDA graphs, custom all-reduce, FP8 KV), and rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel.",
        };
      }
      if (f.decisive && GPU_UNSUPPORTED.test(f.decisive)) {
        return {
          summary: `this GPU lacks what a flag asks for: ${f.decisive}`,
          fix: "FP8 needs compute capability 8.9+ (Ada, Hopper): drop --kv-cache-dtype fp8 (and FP8 quantization) on this GPU, or move the endpoint to one that has it.",
        };
      }
      if (f.decisive && HF_OFFLINE.test(f.decisive)) {
        return {
          summary:
            "the model is not in the Hugging Face cache and the hub is offline (HF_HUB_OFFLINE / local_files_only)",
          fix: "Put the model in the cache the engine reads (huggingface-cli download on a machine with access, into its HF_HOME: the one a container mounts), or point the engine at a local model directory, or allow the download (unset HF_HUB_OFFLINE).",
        };
      }
      if (f.decisive && ARCH_UNSUPPORTED.test(f.decisive)) {
        const arch = /\[([^\]]*)\]/.exec(f.decisive)?.[1] ?? "the model's";
        return {
          summary: `this vLLM does not know the model's architecture (${arch})`,
          fix: "Use a vLLM new enough for this model (image or venv; its release notes list the architecture), or a model this vLLM supports; no flag fixes this (--trust-remote-code does not add an architecture to vLLM).",
        };
      }
      if (f.decisive && INSTALL.test(f.decisive)) return installAdvice(f.decisive);
      if (f.decisive && NO_GPU.test(f.decisive)) {
        return {
          summary: "the engine sees no usable GPU",
          fix: "Give the container the GPUs (an engine the unit runs itself: the unit's user must reach /dev/nvidia* or /dev/kfd and /dev/dri) and check the host's driver: NVIDIA: --device nvidia.com/gpu=all (CDI) or --gpus all, and nvidia-smi on the host; AMD: the whole /dev/dri (render nodes alone hide the GPUs) and /dev/kfd; and CUDA_VISIBLE_DEVICES/HIP_VISIBLE_DEVICES.",
        };
      }
      return {
        summary: `engine initialization failed: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `Engine core initialization failed` is only the wrapper, the cause is the EngineCore/worker traceback above it.",
      };
    }
    case "clean-exit":
      return {
        summary: `${unit} exited cleanly (status 0) with no traceback in the window, before readiness`,
        fix: "vLLM's API server exits 0 after an EngineCore fatal error and the container is already removed: widen the journal window (journalctl -o json, relative --since) to find the traceback, and check NRestarts. With Restart=on-failure the unit stays silently dead: use Restart=always.",
      };
    case "container-removed":
      return {
        summary: `a healthy engine (ready) exited 0 afterwards: ${unit} was stopped from outside`,
        fix: "Suspect an outside actor before the engine: a leftover probe or runner script doing `podman rm -f`, or another deploy. `pgrep -af` the scripts you launched and stop strays by PID.",
      };
    case "crash-loop":
      return {
        summary: `crash loop: ${loopText(f.attempts, f.failedExits)}${f.startLimit ? "; systemd hit the start limit and gave up" : ""}`,
        fix: `Every attempt dies the same way: the shape does not fit. Read the first attempt's journal for the cause (\`systemctl show -p NRestarts ${unit}\`).${f.startLimit ? ` Then \`systemctl reset-failed ${unit}\` before starting it again.` : ""}`,
      };
    case "tools-not-enabled":
      return {
        summary: "tool calls refused: auto tool choice is not enabled on the server (a config gap, not a model fault)",
        fix: "Start vLLM with --enable-auto-tool-choice --tool-call-parser <parser> (llama.cpp: --jinja).",
      };
    case "auth-mismatch":
      return authMismatchAdvice(f);
    case "ready":
      return { summary: `the engine reached readiness (${f.decisive ?? "Application startup complete."})`, fix: null };
    case "booting":
      return { summary: `still booting${f.phase ? ` (phase: ${f.phase})` : ""}; no failure yet`, fix: null };
    case "engine-args":
      if (f.decisive && CHAT_TEMPLATE.test(f.decisive)) {
        return {
          summary: `the chat template failed: ${f.decisive} (a server config problem, not a tool-choice gap)`,
          fix: "Give the server a template that renders these messages: --chat-template FILE (or the model's own tokenizer_config chat_template); template kwargs go in the request's chat_template_kwargs, not engine flags.",
        };
      }
      if (f.decisive && PARSER.test(f.decisive)) {
        const which = /reasoning/i.test(f.decisive) ? "--reasoning-parser" : "--tool-call-parser";
        return {
          summary: `the ${which.slice(2)} failed: ${f.decisive}`,
          fix: `Set ${which} to a parser this vLLM has and that matches the model's output format (vllm serve --help lists the choices).`,
        };
      }
      return {
        summary: `the engine refused its command line: ${f.decisive ?? "no cause line found"}`,
        fix: "Correct the engine flag the decisive line names in the serve script.",
      };
    case "runtime-error":
    case "unit-error":
    case "script-error":
      return {
        summary: `${cls}: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix what the decisive line names, then deploy again.",
      };
    case "unknown":
      return {
        summary: "no vLLM boot line, failure signature or unit event found",
        fix: 'Check the window and the source: capture with `journalctl -o json --since "20 min ago"` filtered on CONTAINER_NAME or the unit (relative times only).',
      };
  }
}

/**
 * A broken or mismatched install (venv, shared libraries, compiled extensions, uv): each names the one thing to fix.
 */
function installAdvice(decisive: string): { summary: string; fix: string } {
  if (/No module named/.test(decisive)) {
    return {
      summary: `the interpreter that ran the engine cannot import it: ${decisive}`,
      fix: "The unit or script runs a Python without the engine installed (the system python3, another venv): start it with the venv's own binary or interpreter (ExecStart=/path/to/venv/bin/vllm serve …, or /path/to/venv/bin/python -m …); systemd and nohup do not see an activated venv or conda env.",
    };
  }
  if (/error while loading shared libraries/.test(decisive)) {
    return {
      summary: `the dynamic loader cannot find a library the engine needs: ${decisive}`,
      fix: "systemd does not read ~/.bashrc: give the unit Environment=LD_LIBRARY_PATH=/usr/local/cuda/lib64 (the directory holding it), or register it with ldconfig; check with ldd on the binary.",
    };
  }
  if (/undefined symbol/.test(decisive)) {
    return {
      summary: `a compiled extension was built against another torch or CUDA than the one installed: ${decisive}`,
      fix: "Reinstall the engine and its kernels (vllm, sgl_kernel, flash-attn) for the torch in this venv, in one pip/uv install, or use the engine's image; do not upgrade torch under them.",
    };
  }
  return {
    summary: `uv found no such command in the project it ran from: ${decisive}`,
    fix: "uv run resolves the project from the working directory: set WorkingDirectory= in the unit to the project (or uv run --project DIR), or run the venv's bin/vllm directly.",
  };
}
