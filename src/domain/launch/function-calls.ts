// What a shell function prints and what it is given: a command string built in one function (`echo "$cmd"`),
// captured by another (`cmd=$(make_cmd)`) and passed on as an argument (`start "$cmd"`, run there as `$cmd` after
// `local cmd="$1"`). Pure helpers of the grouper; they only read the words it already knows.
import type { Command, Word } from "./model.js";
import type { Token } from "./lexer.js";
import { basename, programWords } from "./words.js";

/** `$x`, `"$x"`, `${x}`, `"${1}"`: the one variable (or positional parameter) a word is, else null. */
export function soleReference(text: string): string | null {
  const m = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*|[1-9])\}?"?$/.exec(text);
  return m ? m[1]! : null;
}

/** `$(name)` or `"$(name)"` alone: the function it captures, else null. */
export function capturedFunction(raw: string): string | null {
  const m = /^"?\$\(\s*([A-Za-z_][\w-]*)\s*\)"?$/.exec(raw.trim());
  return m ? m[1]! : null;
}

/**
 * The words a function body's echo lines print: each echoed word split as bash would when the output is
 * captured unquoted, a `"$cmd"` whose value is known as those words; words under a condition deeper than the
 * function's own are optional.
 */
export function echoedWords(
  body: readonly Command[],
  depthOf: (c: Command) => number,
  ownDepth: number,
  strings: ReadonlyMap<string, Word[]>,
): Word[] {
  return body
    .filter((c) => c.words[0]?.text === "echo")
    .flatMap((c) => {
      const optional = depthOf(c) > ownDepth;
      return c.words
        .slice(1)
        .filter((x) => !/^-[neE]+$/.test(x.text))
        .flatMap((x): Word[] => {
          const ref = soleReference(x.text);
          const known = ref ? strings.get(ref) : undefined;
          if (known) return known.map((k) => ({ ...k, optional: k.optional || optional }));
          if (x.dynamic) return [{ ...x, optional }];
          return x.text
            .split(/\s+/)
            .filter(Boolean)
            .map((text) => ({ ...x, text, optional }));
        });
    });
}

/**
 * The positional parameters a call gives a function, by number, when one of them is a known command string
 * (several words): `start "$cmd"` -> { "1": cmd's words }. Null when no argument is known so (nothing to follow).
 */
export function knownArguments(
  args: readonly Word[],
  strings: ReadonlyMap<string, Word[]>,
): Map<string, Word[]> | null {
  const out = new Map<string, Word[]>();
  let any = false;
  args.slice(0, 9).forEach((a, i) => {
    const ref = soleReference(a.text);
    const known = ref ? strings.get(ref) : undefined;
    if (!known) return;
    out.set(String(i + 1), known);
    if (known.length > 1) any = true;
  });
  return any ? out : null;
}

/** A body that removes a container (`docker rm $NAME`): a call naming one is followed, so the removal is seen. */
export function removesContainer(body: readonly Token[]): boolean {
  const words = body.flatMap((t) => (t.kind === "word" ? [t.word.text] : []));
  return words.some((w, i) => (w === "docker" || w === "podman") && (words[i + 1] === "rm" || words[i + 2] === "rm"));
}

/** Every known argument by number (one word or several), for a body that needs even single words. */
export function anyKnownArguments(
  args: readonly Word[],
  strings: ReadonlyMap<string, Word[]>,
): Map<string, Word[]> | null {
  const out = new Map<string, Word[]>();
  args.slice(0, 9).forEach((a, i) => {
    const ref = soleReference(a.text);
    const known = ref ? strings.get(ref) : undefined;
    if (known) out.set(String(i + 1), known);
  });
  return out.size ? out : null;
}

/** A body that passes its arguments on as words ("$@", "${@}", $*): a call's flags reach what it runs. */
export function forwardsAll(body: readonly Token[]): boolean {
  return body.some((t) => t.kind === "word" && (t.word.arrayRef === "@" || /^"?\$\{?[@*]\}?"?$/.test(t.word.text)));
}

/** The functions a script defines, shared by the reading of a called function's body. */
export interface Functions {
  /** the words each function's echo lines print, for an unquoted `$(name)` */
  printed: Map<string, Word[]>;
  /** functions that run docker/podman with their own arguments (`rdocker() { ssh host "docker ${q[*]}"; }`) */
  forwarders: Map<string, "docker" | "podman">;
  /** each function's body tokens, read again when a call gives it a known command string */
  bodies: Map<string, Token[]>;
  /** the functions whose body is being (or was) read again for a call */
  following: Set<string>;
}

/** Words that pass a function's own arguments on: "$@", $*, or an array built from them (`${q[*]}`). */
const FORWARDS = /\$(\{)?[@*]|\[[@*]\]\}/;

/**
 * The container runtime a function body runs with the function's arguments: `docker "$@"`, or over ssh as one
 * remote command string (`ssh host "docker ${q[*]}"`); null for any other function.
 */
export function forwardedRuntime(body: readonly Command[]): "docker" | "podman" | null {
  for (const c of body) {
    const w = programWords(c.words);
    const prog = w[0] ? basename(w[0].text) : "";
    if ((prog === "docker" || prog === "podman") && w.slice(1).some((x) => FORWARDS.test(x.text))) return prog;
    const remote = prog === "ssh" ? /^(?:sudo\s+)?(docker|podman)\s/.exec(w.at(-1)?.text ?? "") : null;
    if (remote && FORWARDS.test(w.at(-1)!.text)) return remote[1] as "docker" | "podman";
  }
  return null;
}
