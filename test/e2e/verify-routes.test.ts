// Where the runner cannot reach the endpoint: the HTTP checks go from the configured peer (curl over
// SSH), else through an SSH tunnel, reported as not from a peer. The engine publishes its port on the
// sandbox host's loopback only, so the runner's own 127.0.0.1:PORT (nothing listens: our port range)
// refuses, while the sandbox host reaches it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { endpointSchema } from "../../src/domain/config/schema.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import { sandboxOrSkip, target } from "./support/sandbox.js";
import { removeUnit, startUnit, unitText, waitUntil } from "./support/units.js";
import { bootCase, contextFor, GOOD_ARGS, type Booted } from "./support/verify-helpers.js";

const PORT = 7857;

describe("verify's HTTP routes", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let b: Booted;
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    b = await bootCase(host, s, PORT, { live: GOOD_ARGS, env: { VLLM_LOGGING_LEVEL: "INFO" } });
    // republish on the sandbox host's loopback only
    await startUnit(
      host,
      b.u,
      unitText(b.u, s.image, GOOD_ARGS, { FAKE_BOOT_SECONDS: "1", VLLM_LOGGING_LEVEL: "INFO" }).replace(
        `-p ${PORT}:${PORT}`,
        `-p 127.0.0.1:${PORT}:${PORT}`,
      ),
    );
    await host.runShell(`systemctl restart ${b.u.unit}`);
    await waitUntil("engine on the host's loopback", 60_000, async () =>
      (await host.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", `http://127.0.0.1:${PORT}/health`]))
        .stdout === "200"
        ? true
        : null,
    );
    b.endpoint = endpointSchema.parse({ ...b.endpoint, url: `http://127.0.0.1:${PORT}` });
  });
  afterAll(async () => {
    if (b) {
      await removeUnit(host, b.u);
      b.repo.cleanup();
    }
    await host?.close();
  });
  const deployment = () => ({
    endpoint: b.name,
    ref: "main",
    sha: b.sha,
    startedAtHostMs: b.startedAtHostMs,
    journalCursor: null,
    containerId: null,
    containerCreatedAtHostMs: null,
  });

  it("from the configured peer: curl there, every HTTP check passes and says which way it went", async (ctx) => {
    sandboxOrSkip(ctx);
    const ep = endpointSchema.parse({ ...b.endpoint, peer: target(s!) });
    const fs = await runVerify({ ...contextFor(host, b), endpoint: ep }, { deployment: deployment() });
    const http = fs.filter((f) =>
      ["verify.models", "verify.thinking", "verify.tools", "verify.spec-decode"].includes(f.check),
    );
    expect(http.map((f) => `${f.check} ${f.status}`)).toEqual([
      "verify.models pass",
      "verify.thinking pass",
      "verify.tools pass",
      "verify.spec-decode pass",
    ]);
    expect(http[0]!.summary).toMatch(/via peer root@/);
  });

  it("without a peer: through an SSH tunnel, a warning that it was not from a peer", async (ctx) => {
    sandboxOrSkip(ctx);
    const fs = await runVerify(contextFor(host, b), { deployment: deployment() });
    const models = fs.find((f) => f.check === "verify.models")!;
    expect(models.status).toBe("warn");
    expect(models.summary).toMatch(/not from a peer: SSH tunnel through root@/);
    expect(models.evidence).toContainEqual(expect.stringMatching(/from the runner: connection refused/));
    expect(fs.find((f) => f.check === "verify.tools")!.status).toBe("warn");
    expect(fs.filter((f) => f.status === "fail")).toEqual([]);
  });
});
