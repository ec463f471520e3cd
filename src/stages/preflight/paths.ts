// An endpoint's files must be regular files inside the repository: a symlink or a path that leaves the
// repository is refused before it is read, so no file outside the checkout is ever quoted in a report.
import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";

/** Why `rel` may not be read (null when it may, or does not exist: the caller reports a missing file). */
export function refusePath(root: string, rel: string): string | null {
  if (isAbsolute(rel) || rel === ".." || rel.startsWith("../")) return `${rel} is outside the repository`;
  const abs = join(root, rel);
  try {
    if (lstatSync(abs).isSymbolicLink()) return `${rel} is a symbolic link`;
    const real = relative(realpathSync(root), realpathSync(abs));
    if (real === ".." || real.startsWith("../") || isAbsolute(real)) return `${rel} resolves outside the repository`;
  } catch {
    return null;
  }
  return null;
}
