// isServeScript: is this file a shell script that starts an inference engine (see Engine in model.ts)?
// Used to find serve scripts in a repository that has no deploy-gate.yml.
import type { Command, ServeScript } from "./model.js";
import { parseServeScript } from "./parse.js";
import { basename, functionText, heredocAt, programWords } from "./words.js";

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
  if (!/<</.test(text)) return false;
  const all = parseServeScript(text);
  return startsWrittenLauncher(all) || runsHeredoc(all);
}

/**
 * The engine came from a heredoc a shell reads as its script: `ssh host bash -s <<'EOF'`, `bash <<EOF`, or a function
 * of the file that does so with its stdin (`run_remote host <<'REMOTE'`, run_remote running `ssh "$1" bash -s`).
 */
function runsHeredoc(s: ServeScript): boolean {
  const at = s.engine ? s.engine.command.line - 1 : -1;
  for (let i = at - 1; i >= 0; i--) {
    const doc = /<</.test(s.lines[i]!) ? heredocAt(s.lines, i) : null;
    if (!doc || doc.end < at) continue;
    // the command holding the heredoc starts at the first line of its backslash-continued run
    let first = i;
    while (first > 0 && /\\\s*$/.test(s.lines[first - 1]!)) first--;
    const prog = /^\s*(?:exec\s+|command\s+)?([\w./-]+)/.exec(s.lines[first]!)?.[1] ?? "";
    if (READS_SCRIPT.test(basename(prog))) return true;
    // `REMOTE_CMD=$(cat <<EOF ... EOF)` then `ssh host "$REMOTE_CMD"` (or `bash -c "$REMOTE_CMD"`): the shell runs it
    const captured = /^\s*(?:local\s+|export\s+)?([A-Za-z_]\w*)=\$\(\s*cat\s*<</.exec(s.lines[first]!)?.[1];
    if (captured) return s.commands.some((c) => runsVariable(c, captured));
    const body = functionText(s.lines, prog);
    return body !== null && SHELL_FROM_STDIN.test(body);
  }
  return false;
}

const READS_SCRIPT = /^((ba|da|z|k)?sh|ssh)$/;

/** `ssh HOST ... "$VAR"`, `bash -c "$VAR"`, `eval "$VAR"`: a command that runs the text a variable holds. */
function runsVariable(c: Command, name: string): boolean {
  const w = programWords(c.words);
  const prog = basename(w[0]?.text ?? "");
  if (!READS_SCRIPT.test(prog) && prog !== "eval") return false;
  const ref = new RegExp(`^"?\\$\\{?${name}\\}?"?$`);
  return w.slice(1).some((x) => ref.test(x.text));
}
/** `ssh host ... bash -s`, `bash -s`, `sh -s`: a shell that reads its script from stdin */
const SHELL_FROM_STDIN = /\bssh\b[^\n]*\b(ba|da|z|k)?sh\b|\b(ba|da|z|k)?sh\s+-s\b/;

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
  // a compose file brought up (`cd DIR && docker compose up -d`, `docker-compose -f FILE up`)
  if (/^(docker-)?compose\.ya?ml$|^compose\.ya?ml$|^docker-compose[^/]*\.ya?ml$/.test(file)) {
    const prog = basename(w[0] ?? "");
    const up = w.indexOf("up");
    return up > 0 && (prog === "docker-compose" || prog === "podman-compose" || w[1] === "compose");
  }
  // the written script run directly, or by a shell
  const prog = /^(ba|da|z|k)?sh$/.test(basename(w[0] ?? "")) ? w.find((x, i) => i > 0 && !x.startsWith("-")) : w[0];
  return prog !== undefined && basename(prog) === file;
}
