// The compose service a unit or script starts, and its container's name by each compose tool's own rule
// (podman-compose 1.0.3's naming read from Debian 12's podman_compose.py and measured on the sandbox host).
import { describe, expect, it } from "vitest";
import {
  composeContainerName,
  composeHostFile,
  composeProject,
  composeProjectDir,
  composeUpIn,
  readComposeUp,
} from "../../../src/domain/launch/compose-up.js";
import { composeFileRef, composeTarget } from "../../../src/domain/launch/compose-target.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const upOf = (line: string) => readComposeUp(parseServeScript(line).commands[0]!);

describe("reading compose up from a command", () => {
  it("reads the tool, files, project and services, and skips the options of up that take a value", () => {
    expect(upOf("/usr/bin/podman-compose -f /srv/chat/compose.yaml -p chat up --force-recreate -t 30 engine")).toEqual({
      tool: "podman-compose",
      cli: "podman",
      files: ["/srv/chat/compose.yaml"],
      project: "chat",
      projectDirectory: null,
      services: ["engine"],
      forceRecreate: true,
      line: 1,
    });
    expect(upOf("docker compose --project-directory /srv/x --file=a.yml up -d")).toMatchObject({
      tool: "docker compose",
      cli: "docker",
      files: ["a.yml"],
      projectDirectory: "/srv/x",
      services: [],
    });
    expect(upOf("exec docker-compose -f a.yml -f b.yml up --scale engine=1 engine")).toMatchObject({
      tool: "docker-compose",
      files: ["a.yml", "b.yml"],
      services: ["engine"],
    });
    // podman's own subcommand runs Debian's provider, podman-compose
    expect(upOf("podman compose up")).toMatchObject({ tool: "podman-compose", cli: "podman", services: [] });
  });

  it("is null for every other compose verb and for other commands", () => {
    expect(upOf("podman-compose -f /srv/chat/compose.yaml down")).toBeNull();
    expect(upOf("docker compose logs -f engine")).toBeNull();
    expect(upOf("podman run --rm img up")).toBeNull();
    expect(upOf("podman-compose -p up logs")).toBeNull();
  });

  it("takes a unit's ExecStart=, not its ExecStartPre= down, with the unit's WorkingDirectory=", () => {
    const unit = [
      "[Service]",
      "WorkingDirectory=/srv/chat",
      "ExecStartPre=-/usr/bin/podman-compose down",
      "ExecStart=/usr/bin/podman-compose up engine",
      "ExecStop=/usr/bin/podman-compose down",
      "",
    ].join("\n");
    const found = composeUpIn("unit", unit)!;
    expect(found.workdir).toBe("/srv/chat");
    expect(found.up).toMatchObject({ services: ["engine"], line: 4 });
    expect(composeUpIn("unit", "[Service]\nExecStart=/usr/bin/podman run --name x img\n")).toBeNull();
    // a serve script that cds and runs compose: the command is found; its directory is not the unit's
    expect(composeUpIn("script", "#!/bin/sh\ncd /srv/chat\nexec podman-compose up\n")).toMatchObject({
      workdir: null,
      up: { line: 3 },
    });
  });
});

describe("naming the project and the container", () => {
  const pc = upOf("podman-compose up")!;
  const dc = upOf("docker compose up")!;

  it("podman-compose 1.0.3: the directory lowercased with characters outside [-_a-z0-9] removed; no name:", () => {
    // measured on the sandbox host: a compose file in /root/ctest/chat-Dir ran as chat-dir_engine_1
    expect(composeProject(pc, "/root/ctest/chat-Dir")).toBe("chat-dir");
    expect(composeContainerName("podman-compose", "chat-dir", "engine", null)).toBe("chat-dir_engine_1");
    expect(composeProject(pc, "/srv/My.App")).toBe("myapp");
    expect(composeProject(pc, "/srv/x", "named")).toBe("x");
    expect(composeProject(pc, "/srv/...")).toBeNull();
    expect(composeProject(upOf("podman-compose -p Given up")!, "/srv/x")).toBe("Given");
  });

  it("docker compose: name: first, else the directory, leading - and _ trimmed; `-` between the parts", () => {
    expect(composeProject(dc, "/srv/_Chat.Dir")).toBe("chatdir");
    expect(composeProject(dc, "/srv/x", "Prod-Chat")).toBe("prod-chat");
    expect(composeContainerName("docker compose", "chat", "engine", null)).toBe("chat-engine-1");
    expect(composeContainerName("docker-compose", "chat", "engine", null)).toBe("chat_engine_1");
    expect(composeContainerName("podman-compose", "chat", "engine", "qwen-server")).toBe("qwen-server");
  });

  it("finds the compose file on the host from -f, --project-directory or the working directory", () => {
    expect(composeHostFile(upOf("podman-compose -f /srv/a/../chat/compose.yaml up")!, null)).toBe(
      "/srv/chat/compose.yaml",
    );
    expect(composeHostFile(upOf("podman-compose -f compose.yaml up")!, "/srv/chat")).toBe("/srv/chat/compose.yaml");
    expect(composeHostFile(upOf("podman-compose -f compose.yaml up")!, null)).toBeNull();
    expect(composeHostFile(pc, "/srv/chat")).toBeNull();
    const withDir = upOf("docker compose --project-directory /srv/p -f /etc/c.yml up")!;
    expect(composeProjectDir(withDir, "/etc/c.yml", null)).toBe("/srv/p");
    expect(composeProjectDir(pc, null, "/srv/chat")).toBe("/srv/chat");
  });
});

const COMPOSE = [
  "services:",
  "  cache:",
  "    image: redis:7",
  "  engine:",
  "    image: vllm/vllm-openai:v0.11.0",
  "    command: [--model, Qwen/Qwen3-8B, --port, '8000', --reasoning-parser, qwen3]",
  "",
].join("\n");

describe("the endpoint's compose target", () => {
  const install = [
    { from: "deploy/compose.yaml", to: "/srv/chat/compose.yaml" },
    { from: "deploy/chat.service", to: "/etc/systemd/system/chat.service" },
  ];

  it("maps the host file back to the repository through install:, and names the engine service's container", () => {
    const up = upOf("/usr/bin/podman-compose -f /srv/chat/compose.yaml up")!;
    const ref = composeFileRef(up, null, install, null);
    expect(ref).toEqual({ repoFile: "deploy/compose.yaml", hostFile: "/srv/chat/compose.yaml" });
    expect(composeTarget(up, null, ref, { text: COMPOSE, env: new Map() }, null)).toEqual({
      service: "engine",
      container: "chat_engine_1",
      gap: null,
    });
    // the service named after up, or part:, wins over the first engine
    expect(composeTarget(upOf("podman-compose -f /srv/chat/compose.yaml up cache")!, null, ref, null, null)).toEqual({
      service: "cache",
      container: "chat_cache_1",
      gap: null,
    });
    expect(composeTarget(up, null, ref, { text: COMPOSE, env: new Map() }, "cache").container).toBe("chat_cache_1");
  });

  it("finds the file by the tool's default names in WorkingDirectory=, or the config's script: and its install", () => {
    const bare = upOf("podman-compose up")!;
    expect(composeFileRef(bare, "/srv/chat", install, null)).toEqual({
      repoFile: "deploy/compose.yaml",
      hostFile: "/srv/chat/compose.yaml",
    });
    expect(composeFileRef(bare, null, install, "deploy/compose.yaml")).toEqual({
      repoFile: "deploy/compose.yaml",
      hostFile: "/srv/chat/compose.yaml",
    });
    expect(composeFileRef(bare, "/elsewhere", install, null)).toEqual({ repoFile: null, hostFile: null });
  });

  it("takes container_name: (interpolated from .env) and says what is missing when the name cannot be told", () => {
    const up = upOf("docker compose -f /srv/chat/compose.yaml up")!;
    const ref = composeFileRef(up, null, install, null);
    const named = COMPOSE.replace("  engine:\n", "  engine:\n    container_name: ${NAME:-qwen}\n");
    expect(composeTarget(up, null, ref, { text: named, env: new Map([["NAME", "q3"]]) }, null).container).toBe("q3");
    expect(composeTarget(up, null, ref, { text: COMPOSE, env: new Map() }, null).container).toBe("chat-engine-1");
    const nowhere = upOf("podman-compose up")!;
    expect(composeTarget(nowhere, null, { repoFile: null, hostFile: null }, null, null).gap).toMatch(/part:/);
    expect(composeTarget(nowhere, null, { repoFile: null, hostFile: null }, null, "engine").gap).toMatch(
      /absolute -f path/,
    );
  });
});
