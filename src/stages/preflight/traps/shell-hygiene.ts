// Shell habits that cost a boot or a deploy window: unmerged log greps, broad kills, transient
// units for production engines, and stashes that leave untracked files behind.
import { basename, hasMergedStderr, programOf, programWords, runsSubcommand } from "../../../domain/launch/words.js";
import { perCommand } from "./lookups.js";
import { ANY_RUNTIME, type TrapRuleDef } from "./types.js";

const GREPS = new Set(["grep", "egrep", "fgrep", "rg", "ag"]);

export const unmergedLogGrep: TrapRuleDef = {
  id: "unmerged-log-grep",
  defaultLevel: "warn",
  runtimes: ["podman", "docker"],
  engines: "any",
  why:
    'uvicorn writes "Application startup complete." (and vLLM its errors) to stderr, which a pipe does not carry: ' +
    "the grep can never match and the wait burns its whole timeout",
  check: (ctx) =>
    perCommand(ctx, (cmd) => {
      const isLogs = runsSubcommand(cmd, "podman", "logs") ?? runsSubcommand(cmd, "docker", "logs");
      if (!isLogs || !cmd.pipeTo || !GREPS.has(programOf(cmd.pipeTo)) || hasMergedStderr(cmd)) return null;
      const rt = programOf(cmd);
      return {
        summary: `${rt} logs is piped to grep without 2>&1`,
        fix: `Merge stderr before the pipe: ${rt} logs CONTAINER 2>&1 | grep ...`,
      };
    }),
};

export const broadKill: TrapRuleDef = {
  id: "broad-kill",
  defaultLevel: "warn",
  runtimes: ANY_RUNTIME,
  engines: "any",
  why:
    "a pattern kill also matches the shell running it, an SSH session or a freshly deployed engine whose command line " +
    "contains the pattern",
  check: (ctx) =>
    perCommand(ctx, (cmd) => {
      const prog = programOf(cmd);
      const full =
        prog === "pkill" &&
        programWords(cmd.words)
          .slice(1)
          .some((w) => w.text === "--full" || /^-[a-zA-Z0-9]*f/.test(w.text));
      if (prog !== "killall" && !full) return null;
      return {
        summary: `${prog === "killall" ? "killall" : "pkill -f"} kills by name pattern`,
        fix: "Stop the container by name (podman stop NAME) or kill an explicit PID list you recorded when starting the process.",
      };
    }),
};

export const transientUnit: TrapRuleDef = {
  id: "transient-unit",
  defaultLevel: "warn",
  runtimes: ANY_RUNTIME,
  engines: "any",
  why:
    "an engine started by systemd-run lives in a transient unit: it is not boot-persistent and disappears on the next " +
    "reboot or reset, so the winning configuration is never the deployed one",
  check: (ctx) =>
    perCommand(ctx, (cmd) => {
      if (programOf(cmd) !== "systemd-run") return null;
      const rest = programWords(cmd.words).slice(1);
      if (!rest.some((w) => ["podman", "vllm"].includes(basename(w.text)) || /serve/i.test(basename(w.text))))
        return null;
      return {
        summary: "systemd-run starts the engine in a transient unit",
        fix: "Pin the configuration in the repository's serve script and restart the real unit (systemctl restart UNIT).",
      };
    }),
};

const SAFE_STASH = new Set(["pop", "apply", "list", "show", "drop", "clear", "branch", "create", "store"]);

export const bareStash: TrapRuleDef = {
  id: "bare-stash",
  defaultLevel: "warn",
  runtimes: ANY_RUNTIME,
  engines: "any",
  why: "git stash without -u leaves untracked files in the tree, and the deployer's dirty-tree gate trips on them",
  check: (ctx) =>
    perCommand(ctx, (cmd) => {
      const args = runsSubcommand(cmd, "git", "stash");
      if (!args || SAFE_STASH.has(args[0]?.text ?? "")) return null;
      if (args.some((w) => ["--include-untracked", "--all"].includes(w.text) || /^-[a-zA-Z]*[ua]/.test(w.text)))
        return null;
      return {
        summary: "git stash leaves untracked files behind",
        fix: "Use git stash -u (or git stash push --include-untracked).",
      };
    }),
};
