// The files the gate writes for the user (the JSON report, the job summary file): written whole, and
// never through a link that appeared at the path.
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a report file without following a link: a new file created exclusively beside it, then renamed
 * over the path. A symlink planted there after the check is replaced, never written through.
 */
export function writeNoFollow(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  writeFileSync(tmp, text, { flag: "wx" });
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
