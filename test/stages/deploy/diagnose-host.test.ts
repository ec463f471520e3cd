// Host facts for a fix (port owner, loaded images, User=) and their use in deploy.diagnosis.
import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  describeOwner,
  hostFactsScript,
  parseHostFacts,
  portOwnerScript,
} from "../../../src/stages/deploy/diagnose-host.js";
import { diagnoseJournal } from "../../../src/stages/deploy/diagnose.js";
import { belowOf } from "../../../src/domain/diagnosis/below-engine.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";

describe("port owner", () => {
  it("the script finds the real listener of a port on this machine, by PID, from /proc", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "0.0.0.0", r));
    const port = (server.address() as { port: number }).port;
    try {
      const out = execFileSync("sh", ["-c", portOwnerScript(port)], { encoding: "utf8" });
      const owner = describeOwner(out.split("\n")[0]!);
      expect(owner).toMatch(new RegExp(`^node \\(pid ${process.pid}: `));
    } finally {
      server.close();
    }
  });
  it("refuses what is not a port", () => {
    expect(() => portOwnerScript(70000)).toThrow(/not a port/);
    expect(() => portOwnerScript(Number.NaN)).toThrow(/not a port/);
  });
  it("conmon is named by its container", () => {
    expect(
      describeOwner(
        "pid=8676 comm=conmon name=holder cgroup=/system.slice/ssh.service cmd=/usr/bin/conmon --api-version 1 -c da82",
      ),
    ).toBe("container holder (conmon pid 8676)");
    expect(describeOwner("pid=9 comm=nginx name= cgroup=/system.slice/nginx.service cmd=nginx: master process")).toBe(
      "nginx (pid 9: nginx: master process) in nginx.service",
    );
  });
  it("names the program, not a renamed main thread (Node 24's comm is MainThread); a script by its own name", () => {
    expect(
      describeOwner(
        "pid=7 comm=MainThread exe=node name= cgroup=/system.slice/api.service cmd=/usr/bin/node /srv/api.js",
      ),
    ).toBe("node (pid 7: /usr/bin/node /srv/api.js) in api.service");
    expect(
      describeOwner(
        "pid=8 comm=vllm exe=python3.12 name= cgroup=/ cmd=/usr/bin/python3 /usr/local/bin/vllm serve /models/q",
      ),
    ).toBe("vllm (pid 8: /usr/bin/python3 /usr/local/bin/vllm serve /models/q)");
    expect(describeOwner("pid=9 comm=conmon exe=conmon name=holder cgroup=/ cmd=/usr/bin/conmon -n holder")).toBe(
      "container holder (conmon pid 9)",
    );
  });
  it("one script per class that needs the host, none otherwise", () => {
    expect(hostFactsScript(belowOf("Error: unknown flag: --memroy")!, "x.service")).toBeNull();
    expect(
      hostFactsScript(belowOf("x.service: Failed to determine user credentials: No such process")!, "x.service"),
    ).toContain("systemctl show -p User --value -- x.service");
    expect(parseHostFacts("@@deploy-gate-facts:images\nlocalhost/engine-double:latest\n<none>:<none>\n")).toEqual({
      portOwner: null,
      localImages: ["localhost/engine-double:latest"],
      unitUser: null,
    });
  });
});

describe("diagnoseJournal with the deploy's context", () => {
  const w = { service: "i14a-mode.service", container: "i14a-mode", nRestarts: 3, failure: "unit-failed" as const };
  it("mode 0644 names the install: entry from the config", () => {
    const d = diagnoseJournal(fixture("../below-engine/mode.journal.json"), {
      ...w,
      install: [{ from: "scripts/serve.sh", to: "/root/i14a/i14a-mode/serve.sh", mode: "0644" }],
      configFile: "deploy-gate.yml",
    });
    expect(d.class).toBe("unit-error");
    expect(d.fix).toBe(
      'Set mode: "0755" on the install: entry scripts/serve.sh -> /root/i14a/i14a-mode/serve.sh in deploy-gate.yml (it is "0644").',
    );
    expect(d.summary).toMatch(/permission denied \(not executable\) \(crash loop: 3 attempts ended\)$/);
  });
  it("a unit the host does not have, from what systemctl said during the restart", () => {
    const d = diagnoseJournal("", {
      ...w,
      service: "typo.service",
      restartEvidence: [
        "systemctl restart -- typo.service: exit 5 Failed to restart typo.service: Unit typo.service not found.",
      ],
    });
    expect(d.class).toBe("unit-error");
    expect(d.decisive).toMatch(/Unit typo\.service not found\.$/);
    expect(d.fix).toMatch(/service: in deploy-gate\.yml names typo\.service/);
  });
  it("the port's owner from the host facts", () => {
    const d = diagnoseJournal(
      fixture("../below-engine/port.journal.json"),
      { ...w, service: "i14a-port.service" },
      { portOwner: "container holder (conmon pid 1)", localImages: [], unitUser: null },
    );
    expect(d.fix).toMatch(/^Port 7985 is held by container holder \(conmon pid 1\)/);
  });
  it("nothing decisive: unknown, with the window's last lines as evidence", () => {
    const rec = (m: string, i: number) =>
      JSON.stringify({
        __REALTIME_TIMESTAMP: String(1e15 + i),
        __CURSOR: `c${i}`,
        MESSAGE: m,
        SYSLOG_IDENTIFIER: "serve.sh",
        _SYSTEMD_UNIT: "q.service",
        _TRANSPORT: "stdout",
      });
    const d = diagnoseJournal([rec("preparing", 1), rec("waiting for the model volume", 2)].join("\n"), {
      ...w,
      nRestarts: 0,
      service: "q.service",
    });
    expect(d.class).toBe("unknown");
    expect(d.evidence).toEqual(["preparing", "waiting for the model volume"]);
  });
});
