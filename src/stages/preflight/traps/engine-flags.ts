// Engine argv traps: flag combinations vLLM refuses or silently ignores.
import { normalizeFlagName } from "../../../domain/launch/contract.js";
import { engines, hitAt } from "./lookups.js";
import { ANY_RUNTIME, type TrapRuleDef } from "./types.js";

export const autoToolChoice: TrapRuleDef = {
  id: "auto-tool-choice",
  defaultLevel: "fail",
  runtimes: ANY_RUNTIME,
  engines: ["vllm"],
  why: "vLLM refuses to start with --enable-auto-tool-choice and no --tool-call-parser, so the boot is lost",
  check: (ctx) =>
    engines(ctx).flatMap(({ source, engine }) => {
      const auto = engine.flags.find((f) => normalizeFlagName(f.name) === "--enable-auto-tool-choice");
      const parsers = engine.flags.filter((f) => normalizeFlagName(f.name) === "--tool-call-parser");
      // the parser only where a variable the file never sets has a value (`if [[ -n "$TOOL_CALL_PARSER" ]]; then
      // P="--tool-call-parser $TOOL_CALL_PARSER"`, `${TP:+--tool-call-parser "$TP"}`) while auto tool choice is always
      // passed: a run that does not set it is refused
      const fromOutside =
        parsers.length > 0 &&
        parsers.every((f) => f.optional && f.resolvedValue === undefined) &&
        auto !== undefined &&
        !auto.optional &&
        !auto.offDefault;
      if (!auto || (parsers.length && !fromOutside)) return [];
      // added only where the defaults do not reach, under a test of the caller's options for a parser
      // (`[[ $extra == *tool-call-parser* ]]`): the parser comes with it, from words the file does not write
      if (
        auto.offDefault &&
        /tool[-_]call[-_]parser/.test(source.script.text.replace(/--enable-auto-tool-choice/g, ""))
      )
        return [];
      return [
        hitAt(
          ctx,
          source.file,
          auto.line,
          fromOutside
            ? "--enable-auto-tool-choice is always set, --tool-call-parser only when a variable this file never sets has a value"
            : "--enable-auto-tool-choice is set without --tool-call-parser",
          fromOutside
            ? "Give the parser a default in the file (TOOL_CALL_PARSER=${TOOL_CALL_PARSER:-hermes}), or pass --enable-auto-tool-choice only with it."
            : "Add the model's tool parser next to it, e.g. --tool-call-parser qwen3_xml for Qwen3-family models.",
        ),
      ];
    }),
};

const TEMPLATE_FLAGS = new Set(["--enable-thinking", "--preserve-thinking"]);
const KWARGS_FLAGS = new Set(["--default-chat-template-kwargs", "--chat-template-kwargs"]);
const TEMPLATE_VARS = /\b(enable|preserve)_thinking\b/;

export const templateKwargs: TrapRuleDef = {
  id: "template-kwargs",
  defaultLevel: "warn",
  runtimes: ANY_RUNTIME,
  engines: ["vllm"],
  why:
    "enable_thinking/preserve_thinking are chat-template variables, not engine flags: vLLM rejects them as " +
    "arguments, and anywhere but --default-chat-template-kwargs they never reach the template",
  check: (ctx) =>
    engines(ctx).flatMap(({ source, engine }) => {
      const bad = engine.flags.filter((f) => {
        const name = normalizeFlagName(f.name);
        // (vLLM's parser reads `--default-chat-template-kwargs.enable_thinking false` as that dict's key)
        if (KWARGS_FLAGS.has(name) || KWARGS_FLAGS.has(name.split(".")[0]!)) return false;
        return TEMPLATE_FLAGS.has(name) || TEMPLATE_VARS.test(f.name) || TEMPLATE_VARS.test(f.value ?? "");
      });
      // (a flag word holding its value, `--default-chat-template-kwargs={"enable_thinking": true}`, is judged above)
      const positional = engine.args.filter(
        (w) => TEMPLATE_VARS.test(w.text) && !w.text.startsWith("-") && !engine.flags.some((f) => f.value === w.text),
      );
      const lines = [...new Set([...bad.map((f) => f.line), ...positional.map((w) => w.line)])].sort((a, b) => a - b);
      return lines.map((line) =>
        hitAt(
          ctx,
          source.file,
          line,
          "a thinking switch is passed to the engine as a flag instead of a chat-template kwarg",
          `Pass it through the template: --default-chat-template-kwargs '{"enable_thinking": true, "preserve_thinking": true}'.`,
        ),
      );
    }),
};
