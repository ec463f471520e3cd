// isServeScript: is this file a shell script that starts an engine (runs `podman run` or `vllm serve`)?
// Used to find serve scripts in a repository that has no deploy-gate.yml.
import { parseServeScript } from "./parse.js";
import { programWords, basename } from "./words.js";

export function isServeScript(text: string): boolean {
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (shebang) {
    const interp = basename(shebang[1]!) === "env" ? basename(shebang[2] ?? "") : basename(shebang[1]!);
    if (!/^(ba|da|k|z)?sh$/.test(interp)) return false;
  }
  // a cheap gate first: parsing every file in a repository is not free
  if (!/podman|docker|vllm/.test(text)) return false;
  const script = parseServeScript(text);
  if (script.podmanRuns.length > 0) return true;
  return script.commands.some((c) => {
    const w = programWords(c.words);
    return basename(w[0]?.text ?? "") === "vllm" && w[1]?.text === "serve";
  });
}
