// The engine double in the sandbox host's podman, under a production-shaped systemd unit,
// reached from the outer machine like a peer reaches a real endpoint.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SshHost } from "../../src/ports/host/ssh.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { journal, removeUnit, startUnit, unitText, waitUntil, type EngineUnit } from "./support/units.js";

let nextPort = 7771;
const newUnit = (): EngineUnit => {
  const n = fresh("dg-engine");
  return { unit: `${n}.service`, container: n, port: nextPort++ };
};

describe("engine double on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const made: EngineUnit[] = [];
  beforeAll(async () => {
    if (s) host = await SshHost.connect(target(s));
  });
  afterAll(async () => {
    for (const u of made) await removeUnit(host, u);
    await host?.close();
  });
  const url = (u: EngineUnit, path: string) => `http://${s!.address}:${u.port}${path}`;
  const boot = async (args: string[], env: Record<string, string> = {}, restart = "always") => {
    const u = newUnit();
    made.push(u);
    await startUnit(host, u, unitText(u, s!.image, args, env, restart));
    return u;
  };

  it("boots under systemd, refuses the port while booting, then answers a chat completion from the outer machine", async (ctx) => {
    sandboxOrSkip(ctx);
    const u = await boot(
      [
        "--served-model-name",
        "qwen",
        "--max-model-len",
        "8192",
        "--reasoning-parser",
        "qwen3",
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        "qwen3_xml",
      ],
      { FAKE_BOOT_SECONDS: "3" },
    );
    await expect(fetch(url(u, "/health"), { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    await waitUntil("health 200", 30_000, async () => ((await fetch(url(u, "/health"))).status === 200 ? true : null));
    const models = (await (await fetch(url(u, "/v1/models"))).json()) as {
      data: { id: string; max_model_len: number }[];
    };
    expect(models.data[0]).toMatchObject({ id: "qwen", max_model_len: 8192 });
    const ask = async () =>
      (await (
        await fetch(url(u, "/v1/chat/completions"), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            model: "qwen",
            temperature: 0,
            messages: [{ role: "user", content: "What is 2+2?" }],
          }),
        })
      ).json()) as { choices: { message: { content: string; reasoning: string | null } }[] };
    const a = await ask();
    expect(a.choices[0]!.message.reasoning).toBeTruthy();
    expect(a.choices[0]!.message.content).not.toContain("</think>");
    expect((await ask()).choices[0]!.message).toEqual(a.choices[0]!.message);
    const tools = await fetch(url(u, "/v1/chat/completions"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "qwen",
        temperature: 0,
        tool_choice: "auto",
        messages: [{ role: "user", content: "weather?" }],
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            },
          },
        ],
      }),
    });
    const tb = (await tools.json()) as {
      choices: { finish_reason: string; message: { tool_calls: { function: { name: string } }[] } }[];
    };
    expect(tb.choices[0]!.finish_reason).toBe("tool_calls");
    expect(tb.choices[0]!.message.tool_calls[0]!.function.name).toBe("get_weather");

    const recs = await journal(host, u);
    const lines = recs.filter((r) => r.CONTAINER_NAME === u.container).map((r) => String(r.MESSAGE));
    expect(
      lines.some((l) =>
        /GPU KV cache size: [\d,]+ tokens, Maximum concurrency for 8,192 tokens per request: [\d.]+x/.test(l),
      ),
    ).toBe(true);
    const startup = recs.find((r) => String(r.MESSAGE).includes("Application startup complete."));
    expect(startup).toMatchObject({ PRIORITY: "3", SYSLOG_IDENTIFIER: u.container, _SYSTEMD_UNIT: u.unit });
    const argv = await host.run(["podman", "exec", u.container, "cat", "/proc/1/cmdline"]);
    expect(argv.stdout.split("\0")).toContain("--reasoning-parser");
  });

  it("without the tool flags answers tools with vLLM's 400 and leaves <think> in content without a reasoning parser", async (ctx) => {
    sandboxOrSkip(ctx);
    const u = await boot(["--served-model-name", "qwen", "--max-model-len", "4096"], { FAKE_BOOT_SECONDS: "1" });
    await waitUntil("health 200", 30_000, async () => ((await fetch(url(u, "/health"))).status === 200 ? true : null));
    const r = await fetch(url(u, "/v1/chat/completions"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "qwen",
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "f" } }],
      }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe(
      '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    );
    const c = (await (
      await fetch(url(u, "/v1/chat/completions"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "qwen", temperature: 0, messages: [{ role: "user", content: "hi" }] }),
      })
    ).json()) as { choices: { message: { content: string; reasoning: unknown } }[] };
    expect(c.choices[0]!.message.content).toMatch(/^<think>[\s\S]*<\/think>/);
    expect(c.choices[0]!.message.reasoning).toBeNull();
  });

  it("an OOM at boot leaves vLLM's traceback in the journal and exits 0", async (ctx) => {
    sandboxOrSkip(ctx);
    const u = await boot(["--served-model-name", "qwen"], { FAKE_BOOT_SECONDS: "1", FAKE_FAIL: "oom" }, "no");
    // The container exits 0; the unit may still end "failed" because ExecStop finds no container to stop.
    await waitUntil("engine exited", 30_000, async () =>
      ["inactive", "failed"].includes((await host.run(["systemctl", "is-active", u.unit])).stdout.trim()) ? true : null,
    );
    // journald may store the container's last lines a moment after PID 1 records the unit's end
    const msgs = await waitUntil("the traceback in the journal", 30_000, async () => {
      const m = (await journal(host, u)).map((r) => String(r.MESSAGE));
      return m.some((x) => x.includes("RuntimeError: Engine core initialization failed. See root cause above."))
        ? m
        : null;
    });
    expect(
      msgs.some((m) =>
        m.includes("RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 2.00 GiB"),
      ),
    ).toBe(true);
    expect(msgs.some((m) => m.includes("RuntimeError: Engine core initialization failed. See root cause above."))).toBe(
      true,
    );
    const main = await host.run(["systemctl", "show", "-p", "ExecMainStatus", "--value", u.unit]);
    expect(main.stdout.trim()).toBe("0");
  });

  it("a crash after N seconds under Restart=always becomes a crash loop counted in NRestarts", async (ctx) => {
    sandboxOrSkip(ctx);
    const u = await boot(["--served-model-name", "qwen"], { FAKE_BOOT_SECONDS: "0.5", FAKE_CRASH_AFTER: "1" });
    const n = await waitUntil("two restarts", 60_000, async () => {
      const v = Number((await host.run(["systemctl", "show", "-p", "NRestarts", "--value", u.unit])).stdout.trim());
      return v >= 2 ? v : null;
    });
    expect(n).toBeGreaterThanOrEqual(2);
  });
});
