// Coalesces the many small git questions that concurrent checks ask (a file at a ref, a ref's sha,
// a script's history) into one git process per kind and per tick: preflight's speed comes from
// running few processes, not from running them in parallel on a 2-core runner.
import { posix } from "node:path";
import type { Git, HistoryEntry } from "./git.js";

type Pending<K, V> = { key: K; resolve: (v: V) => void; reject: (e: unknown) => void };

class Coalescer<K, V> {
  private queue: Pending<K, V>[] = [];
  private cache = new Map<string, Promise<V>>();
  constructor(
    private readonly keyOf: (k: K) => string,
    private readonly fetchAll: (keys: K[]) => Promise<V[]>,
  ) {}

  get(key: K): Promise<V> {
    const id = this.keyOf(key);
    let p = this.cache.get(id);
    if (!p) {
      p = new Promise<V>((resolve, reject) => {
        if (this.queue.length === 0) setImmediate(() => void this.flush());
        this.queue.push({ key, resolve, reject });
      });
      this.cache.set(id, p);
    }
    return p;
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0);
    try {
      const values = await this.fetchAll(batch.map((b) => b.key));
      batch.forEach((b, i) => b.resolve(values[i]!));
    } catch (e) {
      batch.forEach((b) => b.reject(e));
    }
  }
}

export class GitReader {
  private readonly blobs: Coalescer<{ ref: string; path: string }, Buffer | null>;
  private readonly refs: Coalescer<string, string | null>;
  private readonly logs: Coalescer<{ ref: string; path: string }, HistoryEntry[]>;

  constructor(readonly git: Git) {
    this.blobs = new Coalescer(
      (k) => `${k.ref}:${k.path}`,
      async (keys) =>
        (
          await git.catFile(
            keys.map((k) => `${k.ref}:${k.path}`),
            "--batch",
          )
        ).map((b) => (b === null ? null : Buffer.isBuffer(b) ? b : Buffer.from(b))),
    );
    this.refs = new Coalescer(
      (r) => r,
      async (refs) =>
        (
          await git.catFile(
            refs.map((r) => `${r}^{commit}`),
            "--batch-check",
          )
        ).map((v) => (typeof v === "string" ? v : null)),
    );
    this.logs = new Coalescer(
      (k) => `${k.ref}\0${k.path}`,
      async (keys) => {
        const byRef = new Map<string, string[]>();
        for (const k of keys) byRef.set(k.ref, [...(byRef.get(k.ref) ?? []), k.path]);
        const results = new Map<string, HistoryEntry[]>();
        for (const [ref, paths] of byRef)
          for (const [p, h] of await git.histories(paths, ref)) results.set(`${ref}\0${p}`, h);
        return keys.map((k) => results.get(`${k.ref}\0${k.path}`) ?? []);
      },
    );
  }

  show(ref: string, path: string): Promise<string | null> {
    return this.showBytes(ref, path).then((b) => (b === null ? null : b.toString("utf8")));
  }

  /** The blob's bytes as git stores them (install files: a binary must not pass through UTF-8). */
  showBytes(ref: string, path: string): Promise<Buffer | null> {
    // a path outside the repository (a compose build context `../other/Dockerfile`) is in no commit: git would
    // refuse the whole batch with it
    if (outside(path)) return Promise.resolve(null);
    return this.blobs.get({ ref, path });
  }

  resolve(ref: string): Promise<string | null> {
    return this.refs.get(ref);
  }

  history(path: string, ref = "HEAD"): Promise<HistoryEntry[]> {
    return outside(path) ? Promise.resolve([]) : this.logs.get({ ref, path });
  }
}

/** Absolute, or leaving the repository once `..` steps are taken. */
const outside = (path: string) => {
  const n = posix.normalize(path);
  return n.startsWith("/") || n === ".." || n.startsWith("../");
};
