// Reading a YAML launch file (compose, Kubernetes) node by node, so every value keeps the line it was written on:
// aliases resolved, merge keys (`<<: *base`) looked through, scalars split into shell words the way compose and a
// shell split them, each word located on its own source line. Pure.
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  visit,
  type Alias,
  type Document,
  type Node,
} from "yaml";
import type { Command, Word } from "./model.js";
import { lexWords } from "./lexer.js";

export interface YamlSource {
  text: string;
  docs: Document.Parsed[];
  /** 1-based line of a source offset */
  lineAt(offset: number): number;
}

/**
 * The first line indented with a tab: YAML forbids tabs in indentation, and the parser kubectl and docker compose use
 * (go-yaml) refuses the file ("found a tab character that violates indentation") where the yaml package reads on.
 */
function tabIndented(text: string): number | null {
  const at = text.split("\n").findIndex((l) => /^\t+[ \t]*[^\s#]/.test(l));
  return at < 0 ? null : at + 1;
}

/** Why the text is no YAML a launch can be read from: the parser's first error, with its line; null when it is. */
export function yamlError(text: string): string | null {
  const tab = tabIndented(text);
  if (tab !== null)
    return `not valid YAML at line ${tab}: a tab character in the indentation (YAML allows spaces only)`;
  try {
    const err = parseAllDocuments(text, { uniqueKeys: false })
      .flatMap((d) => d.errors)
      .at(0);
    if (!err) return null;
    const line = err.linePos?.[0].line;
    return `not valid YAML${line ? ` at line ${line}` : ""}: ${err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`;
  } catch (e) {
    return `not valid YAML: ${(e as Error).message.split("\n")[0]}`;
  }
}

/** Every document of the text (a Kubernetes file holds several); null when the text is not YAML at all. */
export function readYaml(text: string): YamlSource | null {
  const counter = new LineCounter();
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: false });
  } catch {
    return null;
  }
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0) || tabIndented(text) !== null) return null;
  return { text, docs, lineAt: (offset) => counter.linePos(offset).line };
}

/**
 * Each alias of the document mapped to the node it names: the last node before it with that anchor (YAML's rule,
 * and yaml's own Alias.resolve). One walk of the document; Alias.resolve walks it again for every call, which made
 * a 36-service compose file with `<<: *base` in each service take 40 s.
 */
function aliasTargets(doc: Document.Parsed): Map<Alias, Node> {
  const out = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const to = anchors.get(node.source);
        if (to) out.set(node, to);
      } else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  return out;
}

export class YamlReader {
  private aliases: Map<Alias, Node> | null = null;

  constructor(
    readonly src: YamlSource,
    readonly doc: Document.Parsed,
  ) {}

  /** The node itself, an alias replaced by what it names. */
  deref(node: unknown): Node | null {
    let n = node as Node | null | undefined;
    for (let guard = 0; guard < 16 && n && isAlias(n); guard++) {
      this.aliases ??= aliasTargets(this.doc);
      n = this.aliases.get(n);
    }
    return n ?? null;
  }

  /** A pair's key as written: a scalar's value, an alias's (`*app :`, a key named by an anchor), else the node. */
  private keyOf(key: unknown): unknown {
    const k = isAlias(key) ? this.deref(key) : key;
    return isScalar(k) ? k.value : k;
  }

  /** A map's value for `key`: its own pair first, then the maps its merge keys (`<<`) bring in. */
  get(node: unknown, key: string): Node | null {
    const map = this.deref(node);
    if (!map || !isMap(map)) return null;
    let merged: Node | null = null;
    for (const pair of map.items) {
      const k = this.keyOf(pair.key);
      if (k === key) return this.deref(pair.value) ?? null;
      if ((k === "<<" || (typeof k === "symbol" && k.description === "<<")) && merged === null) {
        const from = this.deref(pair.value);
        const sources = from && isSeq(from) ? from.items : [from];
        for (const s of sources) {
          merged = this.get(s, key);
          if (merged) break;
        }
      }
    }
    return merged;
  }

  /** The keys of a map, its merged ones included. */
  keys(node: unknown): string[] {
    const map = this.deref(node);
    if (!map || !isMap(map)) return [];
    const out: string[] = [];
    for (const pair of map.items) {
      const k = this.keyOf(pair.key);
      if (typeof k === "string") out.push(k);
      else if (typeof k === "symbol" && k.description === "<<") {
        const from = this.deref(pair.value);
        for (const s of from && isSeq(from) ? from.items : [from]) out.push(...this.keys(s));
      }
    }
    return [...new Set(out)];
  }

  items(node: unknown): Node[] {
    const seq = this.deref(node);
    return seq && isSeq(seq) ? seq.items.map((i) => this.deref(i)).filter((i): i is Node => i !== null) : [];
  }

  /** A scalar's value as text (numbers and booleans as written); null for a map, a list or nothing. */
  str(node: unknown): string | null {
    const n = this.deref(node);
    if (!n || !isScalar(n) || n.value === null) return null;
    return typeof n.value === "string" ? n.value : String(n.source ?? n.value);
  }

  line(node: unknown): number {
    const n = this.deref(node);
    return n?.range ? this.src.lineAt(n.range[0]) : 1;
  }

  /** The line of `key` itself in a map (where a finding about the key points). */
  keyLine(node: unknown, key: string): number {
    const map = this.deref(node);
    if (map && isMap(map)) {
      for (const pair of map.items) {
        if (this.keyOf(pair.key) === key && (pair.key as Node | null)?.range)
          return this.src.lineAt((pair.key as Node).range![0]);
      }
    }
    const v = this.get(node, key);
    return v ? this.line(v) : this.line(node);
  }

  /** For a block scalar (`|`, `>`), the line its text starts on; else the scalar's own line. */
  textLine(node: unknown): number {
    const n = this.deref(node);
    if (!n || !isScalar(n) || !n.range) return this.line(n);
    const block = n.type === "BLOCK_LITERAL" || n.type === "BLOCK_FOLDED";
    return block ? this.src.lineAt(n.range[0]) + 1 : this.src.lineAt(n.range[0]);
  }

  /**
   * A command written as a list (one word per item, never split) or as a string (split into words as a shell
   * splits them, which is what compose does with a string `command:`), each word on the line it is written on.
   */
  words(node: unknown, expand: (text: string) => string | undefined, opts: { hashIsWord?: boolean } = {}): Word[] {
    const n = this.deref(node);
    if (!n) return [];
    if (isSeq(n)) {
      return this.items(n).flatMap((item) => {
        const text = this.str(item);
        return text === null ? [] : [yamlWord(text, this.textLine(item), expand)];
      });
    }
    const text = this.str(n);
    if (text === null || !n.range) return [];
    const from = n.range[0];
    const raw = this.src.text.slice(from, n.range[1]);
    let cursor = 0;
    // compose's splitter (go-shellwords) knows no comments: a `# ...` line of a folded command is words like any other
    const split = opts.hashIsWord ? text.replace(/(^|\s)#/g, "$1\\#") : text;
    return lexWords(split, this.line(n)).map((w) => {
      // the lexer counts lines in the value; a folded scalar has fewer than the source: find each word in the source
      const probe = w.text.slice(0, 24);
      const at = probe ? raw.indexOf(probe, cursor) : -1;
      if (at >= 0) cursor = at + probe.length;
      return yamlWord(w.text, this.src.lineAt(from + Math.max(0, at >= 0 ? at : cursor)), expand);
    });
  }
}

/** A word of a YAML value; `expand` fills the file's variables ($(VAR), ${VAR:-x}), undefined when unknown. */
export function yamlWord(text: string, line: number, expand: (text: string) => string | undefined): Word {
  const resolved = expand(text);
  const dynamic = /\$[({A-Za-z_]/.test(text);
  return { text, line, optional: false, dynamic, ...(resolved !== undefined ? { resolved } : {}) };
}

/** A synthetic word for an option the file's keys stand for (`shm_size: 8g` -> `--shm-size 8g`). */
export const optionWord = (text: string, line: number): Word => ({
  text,
  line,
  optional: false,
  dynamic: false,
  resolved: text,
});

/** The command a YAML file's service or container stands for: its words, spanning lines from..to of the file. */
export const yamlCommand = (words: Word[], from: number, to: number, lines: readonly string[]): Command => ({
  words,
  assignments: [],
  line: from,
  endLine: to,
  source: lines.slice(from - 1, to).join("\n"),
  redirects: [],
  pipeTo: null,
});
