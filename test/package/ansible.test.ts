// The Ansible example a user copies (examples/ansible/): the play's rollout keys, and Debian's
// ansible-playbook --syntax-check on it (CI installs ansible; test/e2e/ansible-fleet.test.ts runs it).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseCli } from "../../src/cli/args.js";

const play = (parse(readFileSync("examples/ansible/playbook.yml", "utf8")) as Record<string, unknown>[])[0]!;
const has = (bin: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
};

describe("Ansible example", () => {
  it("one host at a time, no failure tolerated, the gate on the controller after the restart", () => {
    expect(play).toMatchObject({ hosts: "gpu", serial: 1, max_fail_percentage: 0 });
    const tasks = play.tasks as { name: string; delegate_to?: string; "ansible.builtin.command"?: { argv: string } }[];
    const gate = tasks.at(-1)!;
    expect(gate.delegate_to).toBe("localhost");
    expect(tasks.findIndex((t) => /Restart/.test(t.name))).toBeLessThan(tasks.length - 1);
    // the argv the expression builds, as ansible renders it, read by the gate's own parser
    const argv = [
      "verify",
      "--url",
      "http://10.0.3.11:8000",
      "--config",
      "/r/deploy-gate.yml",
      "--endpoint",
      "chat",
      "--quiet",
      "--no-color",
    ];
    expect(gate["ansible.builtin.command"]!.argv).toContain(
      "['verify', '--url', 'http://' ~ ansible_host ~ ':' ~ engine_port, '--config', gate_config, '--endpoint', gate_endpoint, '--quiet', '--no-color']",
    );
    expect(parseCli(argv, "/tmp")).toMatchObject({ command: "verify", url: "http://10.0.3.11:8000", endpoint: "chat" });
  });

  it.skipIf(!has("ansible-playbook") && process.env.CI !== "true")("ansible-playbook --syntax-check passes", () => {
    const out = execFileSync(
      "ansible-playbook",
      ["--syntax-check", "-i", "examples/ansible/inventory.yml", "examples/ansible/playbook.yml"],
      { encoding: "utf8", env: { ...process.env, ANSIBLE_NOCOLOR: "1" } },
    );
    expect(out).toMatch(/playbook: examples\/ansible\/playbook\.yml/);
  });
});
