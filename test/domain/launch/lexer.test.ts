import { describe, expect, it } from "vitest";
import { lex, type Token } from "../../../src/domain/launch/lexer.js";

const words = (tokens: Token[]) => tokens.flatMap((t) => (t.kind === "word" ? [t.word] : []));
const texts = (src: string) => words(lex(src)).map((w) => w.text);
const shape = (tokens: Token[]) =>
  tokens.map((t) =>
    t.kind === "word"
      ? t.word.text
      : t.kind === "op"
        ? `op:${t.op === "\n" ? "NL" : t.op}`
        : t.kind === "redirect"
          ? `redir:${t.op}:${t.target}`
          : `array:${t.name}`,
  );

describe("lex", () => {
  it("removes quotes the way bash does", () => {
    expect(texts(`echo 'a b' "c \\"d\\" e" f\\ g 'it'\\''s' "\\$HOME" $'tab\\there'`)).toEqual([
      "echo",
      "a b",
      'c "d" e',
      "f g",
      "it's",
      "$HOME",
      "tab\there",
    ]);
  });

  it("marks words with parameter expansions dynamic and keeps the expansion text", () => {
    const ws = words(lex(`run "$MODEL_DIR":/models \${PORT:-7770} --x=\${A}b plain '$NOT'`));
    expect(ws.map((w) => [w.text, w.dynamic])).toEqual([
      ["run", false],
      ["$MODEL_DIR:/models", true],
      ["${PORT:-7770}", true],
      ["--x=${A}b", true],
      ["plain", false],
      ["$NOT", false],
    ]);
  });

  it("joins backslash-newline continuations and gives each word the line it starts on", () => {
    const ws = words(lex("podman run \\\n  --name x \\\n  img \\\n  --port 7770\n"));
    expect(ws.map((w) => [w.text, w.line])).toEqual([
      ["podman", 1],
      ["run", 1],
      ["--name", 2],
      ["x", 2],
      ["img", 3],
      ["--port", 4],
      ["7770", 4],
    ]);
  });

  it("drops comments but keeps a # inside a word", () => {
    expect(texts("echo a#b # the rest is a comment 'with quotes\necho c")).toEqual(["echo", "a#b", "echo", "c"]);
  });

  it("ends the command at a comment line inside a continuation, as bash does", () => {
    const tokens = lex("podman run \\\n  # why the next flag\n  --flag v\n");
    expect(shape(tokens)).toEqual(["podman", "run", "op:NL", "--flag", "v", "op:NL"]);
  });

  it('splits ${VAR:+--flag "$VAR"} into optional words, and keeps a quoted one as one optional word', () => {
    const ws = words(lex(`podman run \${CACHE:+-v "$CACHE":/root/.cache} "\${SPEC:+--spec}" img`));
    expect(ws.map((w) => [w.text, w.optional])).toEqual([
      ["podman", false],
      ["run", false],
      ["-v", true],
      ["$CACHE:/root/.cache", true],
      ["--spec", true],
      ["img", false],
    ]);
  });

  it("keeps $( ... ) as one dynamic word, quotes and pipes inside included", () => {
    const ws = words(lex(`CID=$(podman ps --format "{{.Names}}" | grep -x "$CTR")\necho \`date +%s\``));
    expect(ws.map((w) => w.text)).toEqual([
      `CID=$(podman ps --format "{{.Names}}" | grep -x "$CTR")`,
      "echo",
      "`date +%s`",
    ]);
    expect(ws[0]!.assignment).toMatchObject({ name: "CID" });
    expect(ws[0]!.dynamic).toBe(true);
  });

  it("reads control operators and redirects", () => {
    expect(shape(lex("a && b || c; d & e | f |& g"))).toEqual([
      "a",
      "op:&&",
      "b",
      "op:||",
      "c",
      "op:;",
      "d",
      "op:&",
      "e",
      "op:|",
      "f",
      "op:|&",
      "g",
    ]);
    expect(shape(lex("cmd > out 2>&1 >> log &> all < in >&2 2>/dev/null"))).toEqual([
      "cmd",
      "redir:>:out",
      "redir:2>&1:&1",
      "redir:>>:log",
      "redir:&>:all",
      "redir:<:in",
      "redir:>&2:&2",
      "redir:2>:/dev/null",
    ]);
  });

  it("skips heredoc bodies and keeps counting lines", () => {
    const src = "cat <<'EOF' > /etc/x.conf\npodman run fake\nEOF\ncat <<-END\n\tvllm serve fake\n\tEND\necho after\n";
    const ws = words(lex(src));
    expect(ws.map((w) => w.text)).toEqual(["cat", "cat", "echo", "after"]);
    expect(ws[2]!.line).toBe(7);
  });

  it("reads ARGS=( ... ) with its words, their lines, and comments between them", () => {
    const tokens = lex(
      'ARGS=(\n  --max-model-len 32768   # pinned\n  # a whole comment line\n  --port "$PORT"\n)\nARGS+=(--x)\n',
    );
    const arrays = tokens.filter((t) => t.kind === "array");
    expect(arrays.map((a) => [a.name, a.append, a.words.map((w) => [w.text, w.line])])).toEqual([
      [
        "ARGS",
        false,
        [
          ["--max-model-len", 2],
          ["32768", 2],
          ["--port", 4],
          ["$PORT", 4],
        ],
      ],
      ["ARGS", true, [["--x", 6]]],
    ]);
  });

  it('marks "${ARGS[@]}" as an array reference', () => {
    const ws = words(lex(`podman run img "\${ARGS[@]}" \${ARGS[*]} "\${ARGS[0]}"`));
    expect(ws.map((w) => w.arrayRef)).toEqual([null, null, null, "ARGS", "ARGS", null]);
  });

  it("never throws on unterminated quotes or expansions", () => {
    for (const src of [
      `echo "abc`,
      "echo 'abc",
      "echo ${abc",
      "echo $(abc",
      "echo `abc",
      "a=(b c",
      "cat <<EOF\nno end",
    ]) {
      expect(() => lex(src)).not.toThrow();
    }
  });
});
