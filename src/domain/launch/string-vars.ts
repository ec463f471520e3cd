// A script's string variables as bash holds them: `OPTS="--x y"`, `OPTS+=" --z"`, `CMD="$CMD --flag"`,
// `cmd=$(make_cmd)`, each word with the line it was assigned on, while the value is knowable; and the words an
// expansion of one gives the command it is in (`$OPTS` split, `"$CMD"` held, `eval "$A $B"` re-read). Pure.
import type { Word } from "./model.js";
import { lexWords, type LexWord } from "./lexer.js";
import { assignedSource } from "./words.js";
import { capturedFunction, soleReference } from "./function-calls.js";

/** What the variables are read from: the known values, and the script's lines (a value may span several). */
export interface StringScope {
  strings: Map<string, Word[]>;
  lines: string[];
  firstLine: number;
}

export class StringVars {
  /** variables whose value ends in a space: an append to them starts a new word */
  private readonly spaced = new Set<string>();

  constructor(
    private readonly s: StringScope,
    private readonly printed: ReadonlyMap<string, Word[]>,
    private readonly plain: (w: LexWord) => Word,
  ) {}

  /** VAR=value (or +=) at `line`, `raw` as written: the words VAR holds after it, or none when unknowable. */
  set(name: string, value: string | undefined, line: number, append: boolean, raw: string, optional: boolean): void {
    const prev = this.s.strings.get(name);
    // `cmd=$(make_cmd)` (what a function prints) and `cmd="$1"` (a known value copied): the same words
    const copied = capturedFunction(raw) ?? null;
    const from = copied ? this.printed.get(copied) : this.copiedString(raw, name);
    if (from && !append) {
      this.s.strings.set(
        name,
        from.map((w) => ({ ...w, optional: w.optional || optional })),
      );
      return;
    }
    const opaque = /`|\$\(/.test(raw);
    const written = opaque ? [] : this.writtenWords(name, line, raw);
    // `CMD="$CMD --flag"` adds to the value as `CMD+=" --flag"` does: the earlier words keep their lines
    const self = new RegExp(`^\\$\\{?${name}\\}?(?=\\s|$)`).exec(raw);
    if (self && prev && !append) {
      if (opaque) this.s.strings.delete(name);
      else this.s.strings.set(name, [...prev, ...written.slice(1).map((w) => ({ ...this.plain(w), optional }))]);
      return;
    }
    // `args="--port 9000 $args"` puts words before (or around) the earlier value: it stays in place, lines and all
    const own = new RegExp(`^\\$\\{?${name}\\}?$`);
    if (prev && !append && !opaque && written.some((w) => own.test(w.text))) {
      const around = written.flatMap((w) => (own.test(w.text) ? prev : [{ ...this.plain(w), optional }]));
      this.s.strings.set(name, around);
      return;
    }
    let pieces: Word[] | null = null;
    const composed = opaque ? null : this.composed(written, name);
    if (composed) pieces = composed.map((w) => ({ ...w, optional: w.optional || optional }));
    else if (value !== undefined) {
      const texts = value.split(/\s+/).filter(Boolean);
      pieces = texts.map((text, i): Word => ({
        text,
        line: written.length === texts.length ? written[i]!.line : line,
        optional,
        dynamic: false,
        resolved: text,
      }));
    } else if (!opaque) {
      // not knowable as a whole (a $VAR from the environment): its words as written, the unknown ones dynamic
      pieces = written.map((w) => ({ ...this.plain(w), optional }));
    }
    // `s=""; s+="A=1 "; s+="B=2 "`: appending to an empty value, or to one that ends in a space, starts a word
    const apart = prev?.length === 0 || this.spaced.has(name) || /^\s/.test(value ?? raw);
    const joins = !append || (prev !== undefined && apart);
    if (!pieces || !joins) {
      this.s.strings.delete(name);
      return;
    }
    this.s.strings.set(name, append ? [...prev!, ...pieces] : pieces);
    if (/\s$/.test((value ?? raw).replace(/^["']|["']$/g, ""))) this.spaced.add(name);
    else this.spaced.delete(name);
  }

  /**
   * `CTX="${KEEP} ${PREDICT}"`: a value made of other known strings (and plain words) is their words, each at the
   * line that wrote it; null when a word is anything else.
   */
  private composed(written: readonly LexWord[], name: string): Word[] | null {
    if (!written.length) return null;
    const out: Word[] = [];
    let refs = 0;
    for (const w of written) {
      const ref = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(w.text)?.[1];
      const known = ref && ref !== name ? this.s.strings.get(ref) : undefined;
      if (known) {
        out.push(...known);
        refs++;
      } else if (w.text.includes("$") || w.text.includes("`")) return null;
      else out.push(this.plain(w));
    }
    return refs ? out : null;
  }

  private copiedString(raw: string, name: string): Word[] | undefined {
    const ref = soleReference(raw);
    return ref && ref !== name ? this.s.strings.get(ref) : undefined;
  }

  /**
   * A string's words as written, each on its own line: a string that goes on past its line is re-read from the
   * source (quotes removed, line breaks kept; a bounded slice, so no quadratic cost on long files).
   */
  private writtenWords(name: string, line: number, raw: string): LexWord[] {
    const idx = line - this.s.firstLine;
    const spans = /\\\s*$/.test(this.s.lines[idx] ?? "");
    const src = spans ? assignedSource(this.s.lines.slice(idx, idx + 200).join("\n"), 0, name, line) : null;
    return lexWords(src?.text ?? raw, line);
  }

  /** `$OPTS` unquoted (bash splits it into words), or any `"$CMD"` after eval (eval re-reads it): the known words. */
  split(w: LexWord, evaluated: boolean): Word[] | null {
    if (evaluated && w.parts.length > 1) return this.evaluatedParts(w);
    const p = w.parts.length === 1 ? w.parts[0]! : null;
    if (!p || p.kind !== "param" || p.op !== null || p.index !== null || (p.quoted && !evaluated)) return null;
    const known = this.s.strings.get(p.name);
    // one word stays as written ($MODEL), so paths and names still compare by variable; a flag (`$BATCH` holding
    // --cont-batching) is an argv word of its own, read at the line that set it
    return known && (known.length !== 1 || evaluated || /^-/.test(known[0]!.text))
      ? known.map((x) => ({ ...x, optional: x.optional || w.optional }))
      : null;
  }

  /** `"$PREFIX_FLAG"` holding one flag word by default: that flag, at the line that set it (with any alternative
   *  an if-branch the defaults do not take gave it, off by default). */
  heldFlag(w: LexWord): Word[] | undefined {
    const p = w.parts.length === 1 ? w.parts[0]! : null;
    if (p?.kind !== "param" || !p.quoted || p.op !== null || p.index !== null) return undefined;
    const known = this.s.strings.get(p.name);
    const set = known?.filter((k) => !k.offDefault);
    if (set?.length !== 1 || !/^--?[A-Za-z][\w.-]*$/.test(set[0]!.text)) return undefined;
    return known!.map((k) => ({ ...k, optional: k.optional || w.optional }));
  }

  /** `"$CMD"` quoted, CMD a known string of several words: those words (bash keeps them one argument). */
  heldWords(w: LexWord): Word[] | undefined {
    const p = w.parts.length === 1 ? w.parts[0]! : null;
    if (p?.kind !== "param" || !p.quoted || p.op !== null || p.index !== null) return undefined;
    const known = this.s.strings.get(p.name);
    return known && known.length > 1 ? known : undefined;
  }

  /** `eval "$ENV_VARS $CMD"`: eval re-reads the joined values, so each known variable's words in turn. */
  private evaluatedParts(w: LexWord): Word[] | null {
    const out: Word[] = [];
    for (const p of w.parts) {
      if (p.kind === "lit" && !p.text.trim()) continue;
      const known = p.kind === "param" && p.op === null && p.index === null ? this.s.strings.get(p.name) : undefined;
      if (!known) return null;
      out.push(...known.map((x) => ({ ...x, optional: x.optional || w.optional })));
    }
    // the re-read command's leading NAME=value words are assignments (`CUDA_VISIBLE_DEVICES=0 vllm serve ...`)
    const first = out.findIndex((x) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(x.text));
    return first >= 0 ? out.slice(first) : null;
  }
}
