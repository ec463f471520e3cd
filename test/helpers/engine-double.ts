// The engine double (test/sandbox/engine/) served here on loopback, for tests that speak HTTP to an engine
// without the sandbox host: started with its argv and FAKE_* switches, up when /health answers 200.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { until } from "./until.js";

export interface EngineDoubles {
  /** starts one (vLLM's argv after the model, or with raw the whole argv, "{port}" filled in); resolves
   *  with its base URL once /health answers */
  start(args: string[], env?: Record<string, string>, raw?: boolean): Promise<string>;
  /** stops every double this set started (by PID) */
  stopAll(): void;
}

export function engineDoubles(): EngineDoubles {
  const children: ChildProcess[] = [];
  return {
    async start(args, env = {}, raw = false) {
      // a port the kernel just gave out (free, and not another double's); a double that still loses it to a
      // racing bind exits at once, and is started again on another
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        const c = spawn(
          process.execPath,
          [
            "--import",
            "tsx",
            "test/sandbox/engine/main.ts",
            ...(raw
              ? args.map((a) => a.replace("{port}", String(port)))
              : [
                  "/models/qwen",
                  "--host",
                  "127.0.0.1",
                  "--port",
                  String(port),
                  "--served-model-name",
                  "qwen",
                  ...args,
                ]),
          ],
          { env: { ...process.env, FAKE_BOOT_SECONDS: "0.2", ...env }, stdio: "ignore" },
        );
        children.push(c);
        const url = `http://127.0.0.1:${port}`;
        let up = false;
        const poll = async () => {
          while (!up && c.exitCode === null) {
            up = await fetch(`${url}/health`).then(
              (r) => r.ok,
              () => false,
            );
            if (!up) await new Promise((r) => setTimeout(r, 100));
          }
        };
        void poll();
        await until(() => up || c.exitCode !== null, 30_000);
        // up only counts while this double lives: a 200 from a port it never held is someone else's
        if (up && c.exitCode === null) return url;
        if (c.exitCode === null || attempt === 3)
          throw new Error(`the engine double did not come up within 30 s (exit ${c.exitCode}, attempt ${attempt})`);
      }
    },
    stopAll() {
      for (const c of children) if (c.pid && c.exitCode === null) process.kill(c.pid, "SIGTERM");
    },
  };
}

/** A loopback port nothing listens on now: the kernel's choice for a listener bound to port 0, then closed. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
