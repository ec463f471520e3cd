#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  COMMAND_SPECS,
  OPTION_SPECS,
  appliesTo,
  sanitizeLine
} from "./chunk-5RGKNVFB.js";

// src/commands/completion.ts
var SHELLS = ["bash", "zsh", "fish"];
var NAMES = [...COMMAND_SPECS.map((c) => c.name), "help"];
var POSITIONAL = {
  lock: "status release acquire",
  completion: SHELLS.join(" "),
  explain: "FILE",
  help: COMMAND_SPECS.map((c) => c.name).join(" ")
};
var FILE_OPTIONS = ["config", "report", "summary"];
var flagsOf = (c) => OPTION_SPECS.filter((o) => appliesTo(o, c)).map((o) => `--${o.name}`).join(" ");
var squote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
function bash() {
  const valued = OPTION_SPECS.filter((o) => o.type === "string").map((o) => `--${o.name}`);
  return `# deploy-gate completion for bash: source it, or save it as /etc/bash_completion.d/deploy-gate
_deploy_gate() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd="" i
  # the command is the first word that is neither an option nor an option's value
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in
      ${valued.join("|")}) ((i++)) ;;
      -*) ;;
      *) cmd=\${COMP_WORDS[i]}; break ;;
    esac
  done
  case $prev in
    ${FILE_OPTIONS.map((o) => `--${o}`).join("|")}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    ${valued.filter((v) => !FILE_OPTIONS.includes(v.slice(2))).join("|")}) COMPREPLY=(); return ;;
  esac
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W ${squote(NAMES.join(" "))} -- "$cur"))
    return
  fi
  if [[ $cur == -* ]]; then
    case $cmd in
${COMMAND_SPECS.map((c) => `      ${c.name}) COMPREPLY=($(compgen -W ${squote(flagsOf(c.name))} -- "$cur")) ;;`).join("\n")}
    esac
    return
  fi
  case $cmd in
${Object.entries(POSITIONAL).map(
    ([c, w]) => w === "FILE" ? `    ${c}) COMPREPLY=($(compgen -f -- "$cur")) ;;` : `    ${c}) COMPREPLY=($(compgen -W ${squote(w)} -- "$cur")) ;;`
  ).join("\n")}
  esac
}
complete -F _deploy_gate deploy-gate
`;
}
function zsh() {
  const arg = (c) => OPTION_SPECS.filter((o) => appliesTo(o, c)).map((o) => {
    const help = o.help.replace(/[[\]:']/g, " ");
    const value = o.type === "string" ? `:${o.arg ?? "VALUE"}:${FILE_OPTIONS.includes(o.name) ? "_files" : " "}` : "";
    return `        '--${o.name}[${help}]${value}'`;
  }).join(" \\\n");
  const positional = (c) => {
    const w = POSITIONAL[c];
    if (!w) return "";
    return w === "FILE" ? " \\\n        '1:file:_files'" : ` \\
        '1:${c}:(${w})'`;
  };
  return `#compdef deploy-gate
# deploy-gate completion for zsh: save it as _deploy-gate in a directory of $fpath
_deploy_gate() {
  local -a commands
  commands=(
${[...COMMAND_SPECS.map((c) => [c.name, c.summary]), ["help", "a command's options and examples"]].map(([n, s]) => `    ${squote(`${n}:${s.replace(/:/g, " ")}`)}`).join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
${COMMAND_SPECS.map((c) => `    ${c.name})
      _arguments \\
${arg(c.name)}${positional(c.name)}
      ;;`).join("\n")}
    help) _arguments '1:command:(${COMMAND_SPECS.map((c) => c.name).join(" ")})' ;;
  esac
}
_deploy_gate "$@"
`;
}
function fish() {
  const lines = [
    "# deploy-gate completion for fish: save it as ~/.config/fish/completions/deploy-gate.fish",
    "complete -c deploy-gate -f",
    ...COMMAND_SPECS.map(
      (c) => `complete -c deploy-gate -n __fish_use_subcommand -a ${c.name} -d ${squote(c.summary)}`
    ),
    `complete -c deploy-gate -n __fish_use_subcommand -a help -d ${squote("a command's options and examples")}`
  ];
  for (const o of OPTION_SPECS) {
    const cmds = COMMAND_SPECS.filter((c) => appliesTo(o, c.name)).map((c) => c.name);
    const value = o.type === "string" ? FILE_OPTIONS.includes(o.name) ? " -r -F" : " -r" : "";
    lines.push(
      `complete -c deploy-gate -n '__fish_seen_subcommand_from ${cmds.join(" ")}' -l ${o.name}${o.short ? ` -s ${o.short}` : ""}${value} -d ${squote(o.help)}`
    );
  }
  for (const [c, w] of Object.entries(POSITIONAL))
    lines.push(
      w === "FILE" ? `complete -c deploy-gate -n '__fish_seen_subcommand_from ${c}' -F` : `complete -c deploy-gate -n '__fish_seen_subcommand_from ${c}' -a ${squote(w)}`
    );
  return lines.join("\n") + "\n";
}
function completionScript(shell) {
  return { bash, zsh, fish }[shell]();
}

// src/lib/version.ts
var VERSION = "0.1.0";

// src/ports/trace.ts
var verbose = false;
function traceOn(on = true) {
  verbose = on;
}
var tracing = () => verbose || Boolean(process.env.DEPLOY_GATE_TRACE);
function trace(t0, what) {
  process.stderr.write(`${sanitizeLine(`[trace] ${(performance.now() - t0).toFixed(0)}ms ${what}`)}
`);
}

// src/lib/duration.ts
var UNIT_MS = { ms: 1, s: 1e3, m: 6e4, h: 36e5 };
function parseDuration(text) {
  if (typeof text === "number") return Number.isFinite(text) && text >= 0 ? text * 1e3 : null;
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1e3;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    matched = re.lastIndex;
  }
  return matched === s.length && s.length > 0 ? total : null;
}

export {
  VERSION,
  traceOn,
  tracing,
  trace,
  parseDuration,
  SHELLS,
  completionScript
};
