// isServeScript: is this file a shell script that starts an inference engine (see Engine in model.ts)?
// Used to find serve scripts in a repository that has no deploy-gate.yml.
import { parseServeScript } from "./parse.js";
import { basename } from "./words.js";

export function isServeScript(crlfText: string): boolean {
  const text = crlfText.includes("\r\n") ? crlfText.replace(/\r\n/g, "\n") : crlfText; // found, then failed by bash-syntax
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (shebang) {
    const interp = basename(shebang[1]!) === "env" ? basename(shebang[2] ?? "") : basename(shebang[1]!);
    if (!/^(ba|da|k|z)?sh$/.test(interp)) return false;
  }
  // a cheap gate first: parsing every file in a repository is not free
  if (!/vllm|sglang|llama|podman|docker|serve/i.test(text)) return false;
  // a script that only writes a launcher (an installer's heredoc) starts nothing itself: no serve script
  return parseServeScript(text, { heredocs: false }).engine !== null;
}
