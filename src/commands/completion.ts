// `deploy-gate completion bash|zsh|fish`: shell completion scripts generated from the command spec, so a new
// command or option completes without anyone editing a script. Pure text.
import { COMMAND_SPECS, OPTION_SPECS, appliesTo, type Command } from "./spec.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

const NAMES = [...COMMAND_SPECS.map((c) => c.name), "help"];
/** The words a command takes where its positional goes; "FILE" completes file names. */
const POSITIONAL: Partial<Record<Command | "help", string>> = {
  lock: "status release acquire",
  completion: SHELLS.join(" "),
  explain: "FILE",
  help: COMMAND_SPECS.map((c) => c.name).join(" "),
};
const FILE_OPTIONS = ["config", "report", "summary"];
const flagsOf = (c: Command) =>
  OPTION_SPECS.filter((o) => appliesTo(o, c))
    .map((o) => `--${o.name}`)
    .join(" ");
const squote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(): string {
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
${Object.entries(POSITIONAL)
  .map(([c, w]) =>
    w === "FILE"
      ? `    ${c}) COMPREPLY=($(compgen -f -- "$cur")) ;;`
      : `    ${c}) COMPREPLY=($(compgen -W ${squote(w)} -- "$cur")) ;;`,
  )
  .join("\n")}
  esac
}
complete -F _deploy_gate deploy-gate
`;
}

function zsh(): string {
  const arg = (c: Command) =>
    OPTION_SPECS.filter((o) => appliesTo(o, c))
      .map((o) => {
        const help = o.help.replace(/[[\]:']/g, " ");
        const value =
          o.type === "string" ? `:${o.arg ?? "VALUE"}:${FILE_OPTIONS.includes(o.name) ? "_files" : " "}` : "";
        return `        '--${o.name}[${help}]${value}'`;
      })
      .join(" \\\n");
  const positional = (c: Command) => {
    const w = POSITIONAL[c];
    if (!w) return "";
    return w === "FILE" ? " \\\n        '1:file:_files'" : ` \\\n        '1:${c}:(${w})'`;
  };
  return `#compdef deploy-gate
# deploy-gate completion for zsh: save it as _deploy-gate in a directory of $fpath
_deploy_gate() {
  local -a commands
  commands=(
${[...COMMAND_SPECS.map((c) => [c.name, c.summary] as const), ["help", "a command's options and examples"] as const]
  .map(([n, s]) => `    ${squote(`${n}:${s.replace(/:/g, " ")}`)}`)
  .join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
${COMMAND_SPECS.map((c) => `    ${c.name})\n      _arguments \\\n${arg(c.name)}${positional(c.name)}\n      ;;`).join("\n")}
    help) _arguments '1:command:(${COMMAND_SPECS.map((c) => c.name).join(" ")})' ;;
  esac
}
_deploy_gate "$@"
`;
}

function fish(): string {
  const lines = [
    "# deploy-gate completion for fish: save it as ~/.config/fish/completions/deploy-gate.fish",
    "complete -c deploy-gate -f",
    ...COMMAND_SPECS.map(
      (c) => `complete -c deploy-gate -n __fish_use_subcommand -a ${c.name} -d ${squote(c.summary)}`,
    ),
    `complete -c deploy-gate -n __fish_use_subcommand -a help -d ${squote("a command's options and examples")}`,
  ];
  for (const o of OPTION_SPECS) {
    const cmds = COMMAND_SPECS.filter((c) => appliesTo(o, c.name)).map((c) => c.name);
    const value = o.type === "string" ? (FILE_OPTIONS.includes(o.name) ? " -r -F" : " -r") : "";
    lines.push(
      `complete -c deploy-gate -n '__fish_seen_subcommand_from ${cmds.join(" ")}' -l ${o.name}${o.short ? ` -s ${o.short}` : ""}${value} -d ${squote(o.help)}`,
    );
  }
  for (const [c, w] of Object.entries(POSITIONAL))
    lines.push(
      w === "FILE"
        ? `complete -c deploy-gate -n '__fish_seen_subcommand_from ${c}' -F`
        : `complete -c deploy-gate -n '__fish_seen_subcommand_from ${c}' -a ${squote(w)}`,
    );
  return lines.join("\n") + "\n";
}

export function completionScript(shell: Shell): string {
  return { bash, zsh, fish }[shell]();
}
