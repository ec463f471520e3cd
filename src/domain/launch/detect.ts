// isServeScript: is this file a shell script that starts an inference engine (see Engine in model.ts)?
// Used to find serve scripts in a repository that has no deploy-gate.yml.
import type { Command, ServeScript } from "./model.js";
import { parseServeScript } from "./parse.js";
import { basename, heredocAt, programWords } from "./words.js";

export function isServeScript(crlfText: string): boolean {
  const text = crlfText.includes("\r\n") ? crlfText.replace(/\r\n/g, "\n") : crlfText; // found, then failed by bash-syntax
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (shebang) {
    const interp = basename(shebang[1]!) === "env" ? basename(shebang[2] ?? "") : basename(shebang[1]!);
    if (!/^(ba|da|k|z)?sh$/.test(interp)) return false;
  }
  // a cheap gate first: parsing every file in a repository is not free
  if (!/vllm|sglang|llama|podman|docker|serve/i.test(text)) return false;
  if (parseServeScript(text, { heredocs: false }).engine !== null) return true;
  // a script that only writes a launcher (an installer's heredoc) starts nothing itself: no serve script, unless it
  // then starts what it wrote
  return /<</.test(text) && startsWrittenLauncher(parseServeScript(text));
}

/**
 * The engine came from a heredoc written to a file (`cat > /etc/systemd/system/llm.service <<EOF`) and the script
 * starts that file: `systemctl start|restart llm`, `systemctl enable --now llm.service`, or runs the written script.
 */
function startsWrittenLauncher(s: ServeScript): boolean {
  const at = s.engine ? s.engine.command.line - 1 : -1;
  for (let i = at - 1; i >= 0; i--) {
    const doc = /<</.test(s.lines[i]!) ? heredocAt(s.lines, i) : null;
    if (!doc || doc.end < at) continue;
    const target = /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?([^\s"'<>;|&]+)/.exec(s.lines[i]!)?.[1];
    return target !== undefined && s.commands.some((c) => starts(c, basename(target)));
  }
  return false;
}

function starts(c: Command, file: string): boolean {
  const w = programWords(c.words).map((x) => x.text);
  const unit = file.replace(/\.service$/, "");
  if (basename(w[0] ?? "") === "systemctl") {
    const starting = w.some((x) => /^(start|restart|reload-or-restart|try-restart)$/.test(x)) || w.includes("--now");
    return starting && w.some((x) => x === unit || x === `${unit}.service`);
  }
  // the written script run directly, or by a shell
  const prog = /^(ba|da|z|k)?sh$/.test(basename(w[0] ?? "")) ? w.find((x, i) => i > 0 && !x.startsWith("-")) : w[0];
  return prog !== undefined && basename(prog) === file;
}
