// POSIX shell quoting for argv sent to a remote `sh -c` (sshd runs the command through the user's shell).
// Single quotes keep every byte literal; a single quote itself is closed, escaped and reopened.

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(arg: string): string {
  if (arg.includes("\0")) throw new Error("a shell argument cannot contain a NUL byte: remove it from the command");
  if (arg !== "" && SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error("empty command: pass at least the program name");
  return argv.map(shellQuote).join(" ");
}
