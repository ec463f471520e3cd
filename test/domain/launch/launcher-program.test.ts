import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { checkContracts } from "../../../src/stages/preflight/contracts.js";
import { deploymentHead } from "../../helpers/manifests.js";

const service = (command: string, gpus = true) => `services:
  vllm:
    build: .
    command: ${command}
    environment:
      - VLLM_MODEL=facebook/opt-125m
${
  gpus
    ? `    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: all
              capabilities: [gpu]
`
    : ""
}`;
const engines = (text: string) =>
  parseLaunchParts("compose", text).map((p) => [p.name, p.script.engine?.kind ?? null, p.script.engine?.flags.length]);

describe("a team's own launcher of the engine in a compose service given GPUs", () => {
  it("is that engine, its flags unknown (the program builds them when it runs)", () => {
    expect(engines(service("python /app/scripts/vllm_launcher.py"))).toEqual([["vllm", "vllm", 0]]);
    expect(engines(service("./start-sglang.sh"))).toEqual([["vllm", "sglang", 0]]);
    expect(engines(service("bash run_llama_server.sh"))).toEqual([["vllm", "llama.cpp", 0]]);
  });

  it("is not an engine without GPUs, nor as a benchmark, a client or a program that names no engine", () => {
    expect(engines(service("python /app/scripts/vllm_launcher.py", false))).toEqual([["vllm", null, undefined]]);
    expect(engines(service("python run_vllm_benchmark.py"))).toEqual([["vllm", null, undefined]]);
    expect(engines(service("python vllm_client_start.py"))).toEqual([["vllm", null, undefined]]);
    expect(engines(service("python /app/launcher.py"))).toEqual([["vllm", null, undefined]]);
  });
});

describe("contracts of a launch whose flags its own program builds", () => {
  it("are skipped, saying which program builds them, not reported missing", async () => {
    const script = parseLaunch("compose", service("python /app/scripts/vllm_launcher.py"), { part: "vllm" });
    const findings = await checkContracts({
      reader: null as never,
      file: "docker-compose.yml",
      script,
      specs: ["--enable-auto-tool-choice"],
      historyOk: true,
      history: async () => [],
    });
    expect(findings.map((f) => [f.status, f.summary])).toEqual([
      ["skip", expect.stringContaining("built by `python /app/scripts/vllm_launcher.py` when it runs")],
    ]);
  });
});

describe("a Kubernetes controller's container", () => {
  it("is no engine, though its argv starts with a path (controller-runtime's flags)", () => {
    const text = `${deploymentHead("lws-controller-manager")}        - name: manager
          image: registry.k8s.io/lws/lws:v0.4.1
          args:
            - /manager
            - --health-probe-bind-address=:8081
            - --leader-elect
`;
    expect(parseLaunchParts("kubernetes", text).map((p) => p.script.engine?.kind ?? null)).toEqual([null]);
  });
});
