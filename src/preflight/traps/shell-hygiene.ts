// Shell habits that cost a boot or a deploy window: unmerged log greps, broad kills, transient
// units for production engines, and stashes that leave untracked files behind.
import { basename, hasMergedStderr, programOf, programWords, runsSubcommand } from "../../script/words.js";
import { allCommands, lineOf } from "./context.js";
import type { TrapRuleDef } from "./types.js";

const GREPS = new Set(["grep", "egrep", "fgrep", "rg", "ag"]);

export const unmergedLogGrep: TrapRuleDef = {
  id: "unmerged-log-grep",
  defaultLevel: "warn",
  why: "uvicorn writes \"Application startup complete.\" (and vLLM its errors) to stderr, which a pipe does not carry: "
    + "the grep can never match and the wait burns its whole timeout",
  check: (ctx) => allCommands(ctx).flatMap(({ source, item }) => {
    const isLogs = runsSubcommand(item, "podman", "logs") ?? runsSubcommand(item, "docker", "logs");
    if (!isLogs || !item.pipeTo || !GREPS.has(programOf(item.pipeTo)) || hasMergedStderr(item)) return [];
    return [{
      file: source.file,
      line: item.line,
      summary: "podman logs is piped to grep without 2>&1",
      evidence: [lineOf(ctx, source.file, item.line)],
      fix: "Merge stderr before the pipe: podman logs CONTAINER 2>&1 | grep ...",
    }];
  }),
};

export const broadKill: TrapRuleDef = {
  id: "broad-kill",
  defaultLevel: "warn",
  why: "a pattern kill also matches the shell running it, an SSH session or a freshly deployed engine whose command line "
    + "contains the pattern",
  check: (ctx) => allCommands(ctx).flatMap(({ source, item }) => {
    const words = programWords(item.words);
    const prog = programOf(item);
    const full = prog === "pkill" && words.slice(1).some((w) => w.text === "--full" || /^-[a-zA-Z0-9]*f/.test(w.text));
    if (prog !== "killall" && !full) return [];
    return [{
      file: source.file,
      line: item.line,
      summary: `${prog === "killall" ? "killall" : "pkill -f"} kills by name pattern`,
      evidence: [lineOf(ctx, source.file, item.line)],
      fix: "Stop the container by name (podman stop NAME) or kill an explicit PID list you recorded when starting the process.",
    }];
  }),
};

export const transientUnit: TrapRuleDef = {
  id: "transient-unit",
  defaultLevel: "warn",
  why: "an engine started by systemd-run lives in a transient unit: it is not boot-persistent and disappears on the next "
    + "reboot or reset, so the winning configuration is never the deployed one",
  check: (ctx) => allCommands(ctx).flatMap(({ source, item }) => {
    if (programOf(item) !== "systemd-run") return [];
    const rest = programWords(item.words).slice(1);
    const starts = rest.some((w) => ["podman", "vllm"].includes(basename(w.text)) || /serve/i.test(basename(w.text)));
    if (!starts) return [];
    return [{
      file: source.file,
      line: item.line,
      summary: "systemd-run starts the engine in a transient unit",
      evidence: [lineOf(ctx, source.file, item.line)],
      fix: "Pin the configuration in the repository's serve script and restart the real unit (systemctl restart UNIT).",
    }];
  }),
};

const SAFE_STASH = new Set(["pop", "apply", "list", "show", "drop", "clear", "branch", "create", "store"]);

export const bareStash: TrapRuleDef = {
  id: "bare-stash",
  defaultLevel: "warn",
  why: "git stash without -u leaves untracked files in the tree, and the deployer's dirty-tree gate trips on them",
  check: (ctx) => allCommands(ctx).flatMap(({ source, item }) => {
    const args = runsSubcommand(item, "git", "stash");
    if (!args || SAFE_STASH.has(args[0]?.text ?? "")) return [];
    const untracked = args.some((w) => ["--include-untracked", "--all"].includes(w.text) || /^-[a-zA-Z]*[ua]/.test(w.text));
    if (untracked) return [];
    return [{
      file: source.file,
      line: item.line,
      summary: "git stash leaves untracked files behind",
      evidence: [lineOf(ctx, source.file, item.line)],
      fix: "Use git stash -u (or git stash push --include-untracked).",
    }];
  }),
};
