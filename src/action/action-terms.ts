// Advice written for the command line ("pass --endpoint NAME") restated in the action's terms ("set the
// endpoint input"): an action user has inputs, not flags. Pure text in, text out.
import { splitCodeSpans } from "../domain/report/code-span.js";

/** The input that stands for a CLI flag, for messages written for the command line. */
const FLAG_INPUT: Record<string, string> = {
  "--endpoint": "endpoint",
  "--ref": "ref",
  "--base": "base",
  "--config": "config",
  "--lock-wait": "lock-wait",
  "--hosts": "hosts",
  "--skip-preflight": "skip-preflight",
  "--dry-run": "dry-run",
  "--fail-on-warn": "fail-on-warn",
  "--connect-timeout": "connect-timeout",
};
const BOOLEAN_FLAGS = new Set(["--skip-preflight", "--dry-run", "--fail-on-warn"]);

// Only the tool's own advice, "pass --flag [VALUE]": a flag elsewhere is an engine's (restore `--config x`)
// or part of a CLI-only command (deploy-gate lock release --endpoint a). A value is a placeholder or a token
// that is not an ordinary lowercase word ("pass --config with the file" has none); it never ends in . or :
const ADVICE = /\b([Pp])ass (--[a-z-]+)(?: ([^\s`(),;]*[^\s`(),;.:]))?/g;
const PLACEHOLDER = /^(NAME|REF|DURATION|FILE)$/;

function rewriteAdvice(prose: string): string {
  return prose.replace(ADVICE, (whole, p: string, flag: string, next: string | undefined) => {
    const input = FLAG_INPUT[flag];
    if (!input) return whole;
    const value = next !== undefined && !BOOLEAN_FLAGS.has(flag) && !/^[a-z]+$/.test(next) ? next : undefined;
    const set = `${p === "P" ? "S" : "s"}et the ${input} input`;
    if (value === undefined) return `${set}${next !== undefined ? ` ${next}` : ""}`;
    return PLACEHOLDER.test(value) ? set : `${set} to ${value}`;
  });
}

// Any other mention of a flag only the tool has ("--endpoint x is not in the config", "(--base)"): its input.
// Not --config: vLLM has one too, and a fix may name the engine's.
const BARE =
  /(?:\b(a|the)( longer)? )?(?<![\w`-])(--(?:endpoint|ref|base|hosts|lock-wait|connect-timeout|skip-preflight|dry-run|fail-on-warn))(?![\w-])/g;
const rewriteBare = (prose: string) =>
  prose.replace(
    BARE,
    (_w, art: string | undefined, longer: string | undefined, flag: string) =>
      `${art ?? "the"}${longer ?? ""} ${FLAG_INPUT[flag]} input`,
  );

// A deploy-gate command written out in prose runs to the end of its sentence or line.
const COMMAND = /(deploy-gate [^\n]*?(?=[.;)](?:\s|$)|\n|$))/;
const outsideCommands = (prose: string) =>
  prose
    .split(COMMAND)
    .map((p, i) => (i % 2 === 1 ? p : rewriteBare(rewriteAdvice(p))))
    .join("");

/** "pass --endpoint NAME" -> "set the endpoint input": the action user has inputs, not flags. Code spans and
 *  deploy-gate commands stay as written: they are copied to a shell or name the CLI. */
export function inActionTerms(text: string): string {
  return splitCodeSpans(text)
    .map((part, i) => (i % 2 === 1 ? part : outsideCommands(part)))
    .join("");
}
