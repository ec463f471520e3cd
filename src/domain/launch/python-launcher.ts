// A script whose launch is the team's own Python program (`python3 /srv/app/nginx/multi_instance.py --replicas 2`,
// `exec python3 -m src.llm.vllm_runner`) that builds the engine's argv and starts it: the engine is the one the
// program's source starts (`vllm.entrypoints.openai.api_server`, `["vllm", "serve", ...]`, `sglang.launch_server`,
// `llama-server`), none of its flags known here. The caller reads the program from the repository: this file says
// where to look and what the source shows. Pure.
import type { EngineKind } from "../engine/kind.js";
import type { Command, ServeScript, Word } from "./model.js";
import { basename } from "./words.js";
import { peel } from "./wrappers.js";
import { programEngine } from "./unit-launcher.js";

export interface PythonProgram {
  command: Command;
  /** repository paths the program may be at, most likely first */
  candidates: string[];
}

/** The Python programs a script's commands run (`python X.py`, `python -m a.b.c`), with where each may be. */
export function pythonPrograms(script: ServeScript, scriptDir: string): PythonProgram[] {
  const out: PythonProgram[] = [];
  for (const command of script.commands) {
    const w = peel(command.words).map((x) => x.text);
    // (an interpreter named by a variable, `"$PYTHON" "$ROOT/scripts/build_cmd.py"`, runs the .py after it)
    const byVariable = /^\$\{?\w+\}?$/.test(w[0] ?? "") && /\.py$/.test(w[1] ?? "");
    if (!/^python[\d.]*$/.test(basename(w[0] ?? "")) && !byVariable) continue;
    let i = 1;
    while (i < w.length && w[i]!.startsWith("-") && w[i] !== "-m") i++;
    // `$ROOT/scripts/x.py`: a directory the script works out at run time, the rest a path in the repository
    const file = (w[i] ?? "").replace(/^\$\{?\w+\}?\//, "/");
    // (`"$ROOT/serve.py"`: a file one level down is beside the script or at the root, where ROOT points)
    const top = file !== w[i] && !file.slice(1).includes("/") ? [file.slice(1)] : [];
    const paths =
      w[i] === "-m" && w[i + 1] ? moduleFiles(w[i + 1]!) : /\.py$/.test(file) && !/[$`]/.test(file) ? [file] : [];
    const candidates = [...paths, ...top.filter((t) => paths.length && /\.py$/.test(t))].flatMap((p) =>
      placed(p, scriptDir, w[i] !== "-m"),
    );
    if (candidates.length) out.push({ command, candidates: [...new Set(candidates)] });
  }
  return out;
}

/**
 * pyproject.toml's console scripts (`[project.scripts]`, Poetry's `[tool.poetry.scripts]`): each command name with
 * the module its entry point is in (`inference-lab = "inference_lab.cli:main"`).
 */
export function consoleScripts(pyproject: string): Map<string, string> {
  const out = new Map<string, string>();
  let inScripts = false;
  for (const line of pyproject.split("\n")) {
    const table = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (table) inScripts = /^(project\.scripts|tool\.poetry\.scripts)$/.test(table[1]!.trim());
    const m = inScripts ? /^\s*["']?([\w.-]+)["']?\s*=\s*["']([A-Za-z_][\w.]*)(?::[\w.]+)?["']/.exec(line) : null;
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * The console scripts of the repository a script's commands run (`uv run inference-lab serve ...`), each with where
 * its module may be (the package at the root, or under src/).
 */
export function consoleScriptPrograms(script: ServeScript, scripts: ReadonlyMap<string, string>): PythonProgram[] {
  const out: PythonProgram[] = [];
  for (const command of script.commands) {
    const mod = scripts.get(basename(peel(command.words)[0]?.text ?? ""));
    if (!mod) continue;
    const files = moduleFiles(mod);
    out.push({ command, candidates: [...files, ...files.map((f) => `src/${f}`)] });
  }
  return out;
}

/**
 * The sibling modules a program imports relatively (`from .vllm_launcher import launch_vllm_server` in
 * `src/pkg/cli.py`: `src/pkg/vllm_launcher.py`): where an entry point's work often is.
 */
export function relativeImports(source: string, path: string): string[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  return [...source.matchAll(/^\s*from\s+\.([A-Za-z_]\w*)\s+import\b/gm)].map((m) => `${dir}${m[1]}.py`);
}

/** The pyproject.toml files that may declare a script's console scripts: its directory's, then each parent's. */
export function pyprojectPaths(scriptDir: string): string[] {
  const parts = scriptDir ? scriptDir.split("/") : [];
  return parts.map((_, i) => `${parts.slice(0, parts.length - i).join("/")}/pyproject.toml`).concat("pyproject.toml");
}

/** `src.llm.vllm_runner`: the module's file or its package's __main__. */
function moduleFiles(mod: string): string[] {
  if (!/^[A-Za-z_][\w.]*$/.test(mod) || /^(vllm|sglang|llama_cpp)\b/.test(mod)) return [];
  const p = mod.split(".").join("/");
  return [`${p}.py`, `${p}/__main__.py`];
}

/** Beside the script, from the root, and (a file's absolute or installed path) each shorter tail of it. */
function placed(path: string, scriptDir: string, file: boolean): string[] {
  const rel = path.replace(/^\.\//, "");
  const parts = rel.split("/").filter(Boolean);
  const tails = file && rel.startsWith("/") ? parts.slice(0, -1).map((_, i) => parts.slice(i).join("/")) : [];
  const beside = scriptDir && !rel.startsWith("/") ? [`${scriptDir}/${rel}`] : [];
  return [...beside, ...(rel.startsWith("/") ? [] : [rel]), ...tails.filter((t) => t.includes("/"))].filter(
    (p) => !p.startsWith("/") && !p.split("/").includes(".."),
  );
}

const STARTS: ReadonlyArray<[EngineKind, RegExp]> = [
  // (not a logger's name: a copy of vLLM's server module keeps `init_logger('vllm.entrypoints.openai.api_server')`)
  [
    "vllm",
    /(?<!(?:init_logger|getLogger)\(\s*["'])vllm\.entrypoints\.openai\.api_server|["']vllm["']\s*,\s*["']serve["']|["']vllm serve\b/,
  ],
  ["sglang", /sglang\.launch_server|["']sglang["']\s*,\s*["']serve["']/],
  ["llama.cpp", /["'][^"'\s]*llama-server(\.exe)?["']/],
];

/**
 * The engine a Python program's source starts as a process, or null (a client, a library user). A program that can
 * start several (`build_cmd.py --exec sglang CONFIG`) starts the one its command line names.
 */
export function launchedEngine(source: string, args: readonly string[] = []): EngineKind | null {
  const kinds = STARTS.filter(([, re]) => re.test(source)).map(([k]) => k);
  const named = kinds.find((k) => args.some((a) => a.toLowerCase() === (k === "llama.cpp" ? "llama-server" : k)));
  return named ?? kinds[0] ?? null;
}

/** The script with its launch the program's engine, flags unknown (the program builds them). */
export function launchedBy(script: ServeScript, command: Command, kind: EngineKind): ServeScript {
  const builtBy = peel(command.words)
    .map((w) => w.text)
    .join(" ");
  return { ...script, engine: programEngine(kind, "none", command, builtBy) };
}

/** `python3 -c "<program>"` (an inline launcher, a compose entrypoint's block): the engine its source starts. */
export function inlinePythonKind(words: readonly Word[]): EngineKind | null {
  let i = 0;
  while (words[i] && /^(?:\S*\/)?(env|exec|tini|dumb-init)$/.test(words[i]!.text)) i++;
  if (!/^(?:\S*\/)?python[0-9.]*$/.test(words[i]?.text ?? "")) return null;
  const c = words.findIndex((w, j) => j > i && w.text === "-c");
  return c > 0 && words[c + 1] ? launchedEngine(words[c + 1]!.text) : null;
}
