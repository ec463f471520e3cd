// The engine program a variable holds when the script computes it rather than writing it: a probe
// (`$(command -v llama-server)`), a find, the script's own lookup function, or a name that says which engine.
import { ENGINE_BIN_NAME, functionText } from "./words.js";

const PROBE = /^\$\((?:command\s+-v|which)\s+["']?([\w.+-]+)["']?\)$/;
// `$(find_llama_server)`: the script's own lookup function, named for the engine program it finds
const FINDER = /^\$\((?:find|locate|resolve|get|which)_(llama[_-]server|vllm|sglang)(?:_(?:bin|binary|path|exe))?\)$/i;

// `$(find "$ROOT/vendor" -type f -name llama-server -perm -u+x | head -1)`: the engine program a find looks for
const FOUND = /^\$\(find\s[^)]*?-i?name\s+["']?(llama-server|vllm)(?:\.exe)?["']?(?=[\s)|])/;

/** The program a `$(command -v X)`, `$(find_X)` or `$(find DIR -name X)` value holds, or undefined. */
export function probedProgram(value: string): string | undefined {
  const finder = FINDER.exec(value)?.[1];
  return (
    PROBE.exec(value)?.[1] ?? FOUND.exec(value)?.[1] ?? (finder ? finder.toLowerCase().replace("_", "-") : undefined)
  );
}

// `BIN=$(select_bin "$@")`: the script's own function, every candidate of which is one engine program
const CALL = /^\$\(\s*([A-Za-z_][\w-]*)(?:\s[^)]*)?\)$/;
const ENGINE_PROGRAMS = new Set(["llama-server", "vllm", "sglang"]);

/**
 * The engine program a `$(FUNC ...)` value holds when the script's function FUNC names one program only: the
 * llama-server paths it tries, the programs it probes (`command -v X`), the engine variables it echoes.
 */
export function computedProgram(value: string, script: string): string | undefined {
  const name = CALL.exec(value)?.[1];
  const body = name ? functionText(script.split("\n"), name) : null;
  if (body === null) return undefined;
  const code = body.replace(/^\s*#.*$/gm, "");
  const named = new Set<string>();
  // a path's last part (`./build/bin/llama-server`): a bare word may be a command string's first word instead
  for (const m of code.matchAll(/\/(llama-server)(?=$|[\s"';)|])/gm)) named.add(m[1]!);
  for (const m of code.matchAll(/\b(?:command\s+-v|which)\s+["']?([\w.+-]+)/g)) named.add(m[1]!);
  for (const m of code.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
    const bin = namedBinary(m[1]!);
    if (bin) named.add(bin);
  }
  const [only] = named;
  return named.size === 1 && ENGINE_PROGRAMS.has(only!) ? only : undefined;
}

/**
 * A variable the script never sets whose name says which engine's program it holds (`"$VLLM_BIN" serve`, set by
 * an env file or the caller): that program.
 */
export function namedBinary(name: string): string | undefined {
  const m = ENGINE_BIN_NAME.exec(name);
  if (!m) return undefined;
  const engine = m[1]!.toUpperCase();
  return engine === "VLLM" ? "vllm" : engine === "SGLANG" ? "sglang" : "llama-server";
}
