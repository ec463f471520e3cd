// The engine a compose service built from the repository starts: its image's ENTRYPOINT and CMD (the service's
// `command:` replacing CMD, as compose does), or the script they run when the Dockerfile copies it in. Pure.
import type { PodmanRun, Word } from "./model.js";
import { directEngine, imageEngine, type EngineHints, type Found } from "./engine.js";
import { basename } from "./words.js";
import { lexWords } from "./lexer.js";

/** Programs a Dockerfile runs that are none of the engines: a notebook, a web app's server, a shell, a sleeper. */
const OTHER_PROGRAM =
  /^(jupyter(-lab|-notebook)?|uvicorn|gunicorn|hypercorn|streamlit|gradio|flask|fastapi|node|npm|npx|yarn|pnpm|bun|deno|nginx|httpd|caddy|java|ollama|text-generation-launcher|tritonserver|llama-swap|sleep|tail|cat|true|(ba|da|z)?sh)$/;
const PYTHON = /^python[0-9.]*$/;
/** shells of OTHER_PROGRAM: they run what they are given (`-c`, a script), read above */
const SHELLISH = /^(ba|da|z)?sh$/;
/** an ENTRYPOINT that is an engine or may start one: its programs, interpreters, shells, init wrappers, scripts */
const RUNS_ENGINE =
  /^(llama-server(\.exe)?|server|vllm|sglang|python[0-9.]*|uv|conda|(ba|da|z)?sh|tini|dumb-init|env|exec|nohup|.*\.(sh|py))$/;

/**
 * What the built image starts: an engine, null when the Dockerfile says it runs something else, undefined when the
 * Dockerfile does not settle it (the run is then read as any other: its image's name, its argv).
 */
export function builtEngine(run: PodmanRun, h: EngineHints): Found | null | undefined {
  const b = run.build;
  // compose's own `entrypoint:` replaces the image's (and drops its CMD): the run's words are the whole argv
  if (!b || run.options.some((o) => o.name === "--entrypoint")) return undefined;
  const { image } = b;
  const entry = image.entrypoint;
  // an engine's image the Dockerfile leaves running: compose.ts made it the run's image
  if (!entry && image.base && imageEngine(image.base.text)) return undefined;
  const command = run.engineArgs;
  const words = inShell([...(entry ?? []), ...(command.length ? command : (image.cmd ?? []))], image.path);
  if (!words.length) return undefined;
  const what = `the image's ${entry ? "ENTRYPOINT" : "CMD"} (${image.path})`;
  const found = directEngine(words, h);
  if (found) return ownArgs(found, image.path, what);
  const script = b.script;
  if (script && b.scriptEngine) {
    const handed = b.scriptEngine.passesArgs && entry ? command : [];
    return { kind: b.scriptEngine.kind, args: [...handed], builtBy: `${script.path}, ${what}` };
  }
  if (script) {
    // a wrapper that ends by running what it is given (`exec "$@"`): the command it is given
    if (entry && /\$\{?[@*]/.test(script.text)) {
      const inner = directEngine(command.length ? command : (image.cmd ?? []), h);
      return inner ? ownArgs(inner, image.path, what) : undefined;
    }
    // a Python program that starts no engine's server: a benchmark, a client, the team's own server
    if (/\.py$/.test(script.path)) return null;
    // read, and it starts none of the engines (unless it names one in a way the reader missed: then unsettled)
    return /\b(vllm|sglang|llama-server)\b/.test(script.text) ? undefined : null;
  }
  // the Dockerfile's own ENTRYPOINT binary on a base that is no engine's image (`/app/llamacppserver`, a Go server
  // linking llama.cpp's library): that program runs, whatever arguments the compose file hands it
  const program0 = entry?.[0] && entry[0].file === image.path ? basename(entry[0].text) : null;
  if (program0 && OTHER_PROGRAM.test(program0) && !SHELLISH.test(program0)) return null;
  if (program0 && !RUNS_ENGINE.test(program0) && !(image.base && imageEngine(image.base.text))) return null;
  // the Dockerfile's own program, a known other one (`jupyter lab`, `uvicorn app:app`, `python app.py`)
  if (!words.every((w) => w.file === image.path)) return undefined;
  const program = basename(words[0]!.text);
  if (OTHER_PROGRAM.test(program)) return null;
  if (PYTHON.test(program) && /\.py$/.test(words[1]?.text ?? "") && !/vllm|sglang|llama/i.test(words[1]!.text))
    return null;
  if (PYTHON.test(program) && words[1]?.text === "-m" && !/^(vllm|sglang)\b/.test(words[2]?.text ?? "")) return null;
  return undefined;
}

/** `["sh", "-c", "exec vllm serve ..."]` written in the Dockerfile: the string's words, still the Dockerfile's. */
function inShell(words: Word[], dockerfile: string): Word[] {
  const [sh, c, text] = words;
  if (!sh || !c || !text || words.length !== 3 || !/^(?:\S*\/)?(ba|da)?sh$/.test(sh.text) || !/^-[a-z]*c$/.test(c.text))
    return words;
  if (![sh, c, text].every((w) => w.file === dockerfile)) return words;
  return lexWords(text.text, text.line).map((w) => ({ ...w, line: text.line, file: dockerfile }));
}

/** The engine's arguments the compose file writes; those the Dockerfile writes are its flags, not this file's. */
function ownArgs(found: Found, dockerfile: string, what: string): Found {
  const args = found.args.filter((w: Word) => w.file !== dockerfile);
  return args.length === found.args.length ? found : { ...found, args, builtBy: found.builtBy ?? what };
}
