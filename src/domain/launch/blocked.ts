// A launch the script never reaches: a foreground `sleep infinity` (or `tail -f /dev/null`) earlier in the same
// block holds the shell there for good (a pod kept alive for `kubectl exec`, the serve command left below); a
// function the file defines and never names again is a library's, run by the scripts that source it. Pure.
import type { Command, Engine } from "./model.js";

const FOREVER = (c: Command): boolean => {
  const w = c.words.map((x) => x.text);
  return (
    (w[0] === "sleep" && /^(inf|infinity)$/.test(w[1] ?? "") && w.length === 2) ||
    (w[0] === "tail" && w[1] === "-f" && w[2] === "/dev/null" && w.length === 3)
  );
};

/** A block boundary or a background `&` between two lines: the first no longer holds the second back. */
const OPENS_OR_CLOSES = /(^|[\s;])(if|then|else|elif|fi|case|esac|do|done|function)\b|[{}()]|;;|(^|[^&])&\s*(;|$)/;

/** `found` without the launches a foreground infinite wait earlier in the same block keeps from running. */
export function reachable(
  found: readonly Engine[],
  commands: readonly Command[],
  lines: readonly string[],
  firstLine: number,
): Engine[] {
  const waits = commands.filter(FOREVER);
  if (waits.length === 0) return [...found];
  return found.filter((e) => {
    const blocked = waits.some((w) => {
      if (w.line === e.command.line) {
        // `sleep inf; vllm serve ...` on one line: the wait comes first, ended by `;`
        const text = lines[w.line - firstLine] ?? "";
        const at = /\b(sleep\s+inf(inity)?|tail\s+-f\s+\/dev\/null)\s*;/.exec(text);
        const prog = e.command.words[0]?.text ?? "";
        return at !== null && prog !== "" && text.indexOf(prog, at.index + at[0].length) >= 0;
      }
      if (w.line > e.command.line) return false;
      const span = lines.slice(w.line - firstLine, e.command.line - firstLine);
      const own = (lines[w.line - firstLine] ?? "").replace(/.*\b(sleep|tail)\b/, "");
      return !OPENS_OR_CLOSES.test(own) && !span.slice(1).some((l) => OPENS_OR_CLOSES.test(l));
    });
    return !blocked;
  });
}

/** `found` without the launches inside a function whose name the text never uses beyond its definition. */
export function called(
  found: readonly Engine[],
  bodies: readonly { name: string; commands: Command[] }[] | undefined,
  text: string,
): Engine[] {
  if (!bodies?.length) return [...found];
  // a name in a comment or in text the file prints (`echo "  - start_vllm  # start it"`) is no call
  const code = text
    .split("\n")
    .filter((l) => !/^\s*(echo|printf)\s/.test(l))
    .map((l) => l.replace(/(^|\s)#.*$/, ""))
    .join("\n");
  const uncalled = bodies.filter((b) => {
    const uses = code.match(new RegExp(`(^|[^\\w$-])${b.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g"));
    return (uses?.length ?? 0) <= 1;
  });
  if (uncalled.length === 0) return [...found];
  return found.filter(
    (e) => !uncalled.some((b) => b.commands.includes(e.command) || b.commands.some((c) => c.line === e.command.line)),
  );
}
