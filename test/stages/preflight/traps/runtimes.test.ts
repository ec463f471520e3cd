// Each rule fires only for the runtime and engine whose behaviour it describes, and only where its cause can occur.
import { describe, expect, it } from "vitest";
import { checkTraps } from "../../../../src/stages/preflight/traps/check-traps.js";
import { TRAP_RULE_DEFS } from "../../../../src/stages/preflight/traps/registry.js";
import { parseLaunch, type FileKind } from "../../../../src/domain/launch/launch.js";

const traps = (text: string, kind: FileKind = "script") =>
  checkTraps({ script: parseLaunch(kind, text), scriptPath: "f", unit: null, kind }, {}).filter(
    (f) => f.status !== "pass",
  );
const hits = (text: string, kind: FileKind = "script") =>
  traps(text, kind).map((f) => `${String(f.data?.rule)}@${f.line}`);

describe("rules by runtime and engine", () => {
  it("every rule declares its runtimes and engines", () => {
    for (const r of TRAP_RULE_DEFS) {
      expect(r.runtimes.length, r.id).toBeGreaterThan(0);
      expect(r.engines === "any" || r.engines.length > 0, r.id).toBe(true);
    }
  });

  it("ipc-shm: podman and quadlets refuse --ipc=host with --shm-size, docker accepts it", () => {
    expect(hits("podman run --rm --ipc=host --shm-size 8g vllm/vllm-openai --model /m\n")).toEqual(["ipc-shm@1"]);
    expect(hits("docker run --rm --ipc=host --shm-size 8g vllm/vllm-openai --model /m\n")).toEqual([]);
    expect(
      hits("[Container]\nImage=vllm/vllm-openai\nPodmanArgs=--ipc=host\nShmSize=8g\nExec=--model /m\n", "quadlet"),
    ).toEqual(["ipc-shm@4"]);
  });

  it("cache-mount-mkdir: docker creates a missing bind source, podman does not", () => {
    expect(hits("podman run --rm -v /srv/c:/root/.cache vllm/vllm-openai --model /m\n")).toEqual([
      "cache-mount-mkdir@1",
    ]);
    expect(hits("docker run --rm -v /srv/c:/root/.cache vllm/vllm-openai --model /m\n")).toEqual([]);
    expect(hits("mkdir -p /srv/c\npodman run --rm -v /srv/c:/root/.cache vllm/vllm-openai --model /m\n")).toEqual([]);
  });

  it("memlock: only when the engine pins host memory in a GPU container", () => {
    expect(hits("docker run --rm vllm/vllm-openai --model /m --max-model-len 8192\n")).toEqual([]);
    expect(hits("docker run --rm vllm/vllm-openai \\\n  --model /m --cpu-offload-gb 16\n")).toEqual(["memlock@1"]);
    expect(hits("podman run --rm --ulimit memlock=-1:-1 vllm/vllm-openai --model /m --swap-space 16\n")).toEqual([]);
    expect(hits("podman run --rm vllm/vllm-openai --model /m --swap-space 0\n")).toEqual([]);
    expect(hits("podman run --rm localhost/vllm-cpu:latest --model /m --swap-space 8\n")).toEqual([]);
    // bare metal: the user's limits apply, not a container's default
    expect(hits("vllm serve /m --cpu-offload-gb 16\n")).toEqual([]);
  });

  it("name-reuse: --rm, --replace and a prior rm of the name clear it; docker's fix does not offer --replace", () => {
    expect(hits("docker run -d --name v vllm/vllm-openai --model /m\n")).toEqual(["name-reuse@1"]);
    expect(hits("docker run -d --rm --name v vllm/vllm-openai --model /m\n")).toEqual([]);
    expect(hits("podman run -d --replace --name v vllm/vllm-openai --model /m\n")).toEqual([]);
    expect(hits("C=v\ndocker stop $C\ndocker rm $C\ndocker run -d --name $C vllm/vllm-openai --model /m\n")).toEqual(
      [],
    );
    const fix = checkTraps(
      {
        script: parseLaunch("script", "docker run -d --name v vllm/vllm-openai --model /m\n"),
        scriptPath: "f",
        unit: null,
      },
      {},
    )[0]!.fix!;
    expect(fix).toContain("docker rm -f v");
    expect(fix).not.toContain("add --replace");
  });

  it("restart-on-failure is about vLLM's exit code: silent for SGLang and llama.cpp units", () => {
    const unit = (exec: string) => `[Service]\nExecStart=${exec}\nRestart=on-failure\n`;
    expect(hits(unit("/usr/bin/python3 -m vllm.entrypoints.openai.api_server --model /m"), "unit")).toEqual([
      "restart-on-failure@3",
    ]);
    expect(hits(unit("/opt/venv/bin/python -m sglang.launch_server --model-path /m"), "unit")).toEqual([]);
    expect(hits(unit("/usr/local/bin/llama-server -m /m.gguf"), "unit")).toEqual([]);
  });

  it("auto-tool-choice is vLLM's refusal: not checked for SGLang", () => {
    expect(hits("vllm serve /m --enable-auto-tool-choice\n")).toEqual(["auto-tool-choice@1"]);
    expect(hits("python3 -m sglang.launch_server --model-path /m --enable-auto-tool-choice\n")).toEqual([]);
  });

  it("auto-tool-choice added only when the caller's options name a parser is not judged without them (round Z)", () => {
    const script = (test: string) =>
      [
        "while [ $# -gt 0 ]; do",
        '  case "$1" in',
        '    --extra=*) extra="${1#*=}" ;;',
        "  esac",
        "  shift",
        "done",
        'tool_choice=""',
        `if ${test}; then`,
        '  tool_choice="--enable-auto-tool-choice"',
        "fi",
        "vllm serve /m --port 8080 $tool_choice $extra",
        "",
      ].join("\n");
    // nothing passed: the loop never runs, extra is empty, the branch does not run; with a parser it comes along
    expect(hits(script('[[ $extra == *"tool-call-parser"* ]]'))).toEqual([]);
    // a branch whose test does not bring a parser still is
    expect(hits(script('[[ -n "$TOOLS" ]]'))).toEqual(["auto-tool-choice@9"]);
  });

  it("name-reuse sees a docker rm inside a cleanup function the script calls with the name first", () => {
    const script = (call: string) =>
      [
        "cleanup() {",
        "  local N=$1",
        "  docker rm -f $N",
        "}",
        'API="krirag-api"',
        call,
        "docker run -d --gpus all --name $API krirag-api -m /m.gguf --port 8502",
        "",
      ].join("\n");
    expect(hits(script("cleanup $API"))).toEqual([]);
    expect(hits(script("cleanup other"))).toEqual(["name-reuse@7"]);
  });

  it("secret-in-argv ignores placeholders and references, not real keys", () => {
    expect(
      hits("podman run --rm -e HF_TOKEN=<token> -e KEY=changeme vllm/vllm-openai --model /m --api-key EMPTY\n"),
    ).toEqual([]);
    expect(hits('docker run --rm -e "HF_TOKEN={Your_Token}" vllm/vllm-openai --model /m --api_key empty\n')).toEqual(
      [],
    );
    expect(hits('vllm serve /m --api-key "${VLLM_API_KEY}"\n')).toEqual([]);
    // a value masked before publishing (`####...`) is no secret either
    expect(hits("docker run --rm -e HF_TOKEN=##################### vllm/vllm-openai --model /m\n")).toEqual([]);
    // the example key of vLLM's own docs
    expect(hits("vllm serve /m --api-key=token-abc123\n")).toEqual([]);
    // a key's prefix before the placeholder (round AD's SGLang scripts: `--api-key sk-CHANGE-ME`)
    expect(hits("python3 -m sglang.launch_server --model-path /m --api-key sk-CHANGE-ME\n")).toEqual([]);
    expect(hits("vllm serve /m --api-key sk-k7Rq2vXw9LmP4tZs8YbN3cHd\n")).toEqual(["secret-in-argv@1"]);
    expect(hits("vllm serve /m --api-key k7Rq2vXw9LmP4tZs8YbN3cHd\n")).toEqual(["secret-in-argv@1"]);
    // a development default named as one, public in the file (two blind keys: H1's and Z4's)
    expect(hits('llama-server -m /m.gguf --api-key "${LLAMA_API_KEY:-local-dev-key}"\n')).toEqual([]);
    expect(hits("vllm serve /m --api-key dev-token\n")).toEqual([]);
    expect(hits('vllm serve /m --api-key "${VLLM_API_KEY:-local-vllm}"\n')).toEqual(["secret-in-argv@1"]);
    expect(
      hits(
        "[Container]\nImage=vllm/vllm-openai\nEnvironment=HF_TOKEN=hf_KmNbVcXzLpOiUyTrEwQaSdFgHjKlZx\nExec=--model /m\n",
        "quadlet",
      ),
    ).toEqual(["secret-in-argv@3"]);
    // names are read by segment: a tokenizer switch or a token count is not a credential
    expect(
      hits(
        "docker run --rm -e TOKENIZERS_PARALLELISM=false -e MAX_TOKENS=4096 -e HF_HUB_DISABLE_TOKEN=1 vllm/vllm-openai --model /m\n",
      ),
    ).toEqual([]);
    // where the secret is kept, not the secret (round AB's vllm_now: HF_TOKEN_PATH names a mounted file)
    expect(
      hits(
        "docker run --rm -e HF_TOKEN_PATH=/root/.cache/hf_hub_token -e API_KEY_FILE=/run/secrets/k vllm/vllm-openai\n",
      ),
    ).toEqual([]);
    expect(hits("docker run --rm -e HF_TOKEN_SECRET=hf_KmNbVcXzLpOiUyTrEwQaSdFgHjKlZx vllm/vllm-openai\n")).toEqual([
      "secret-in-argv@1",
    ]);
  });

  it("secret-in-argv reads a plain unit's Environment= (systemctl show gives it to every local user), never printing the value", () => {
    const u = (env: string) => `[Service]\n${env}\nExecStart=/usr/local/bin/llama-server -m /m.gguf --port 8080\n`;
    expect(hits(u("Environment=HF_TOKEN=hf_KmNbVcXzLpOiUyTrEwQaSdFgHjKlZx"), "unit")).toEqual(["secret-in-argv@2"]);
    expect(hits(u('Environment="LLAMA_CACHE=/var/cache/x" "OPENAI_API_KEY=k7Rq2vXw9LmP4tZs8YbN3cHd"'), "unit")).toEqual(
      ["secret-in-argv@2"],
    );
    expect(hits(u("Environment=TOKENIZERS_PARALLELISM=false HF_TOKEN=${HF_TOKEN} VLLM_API_KEY=EMPTY"), "unit")).toEqual(
      [],
    );
    const f = traps(u("Environment=DB_PASSWORD=s3cr3t-Pa55word-xyz"), "unit");
    expect(JSON.stringify(f)).not.toContain("s3cr3t-Pa55word-xyz");
  });

  it("a quadlet's unit keys are its own: Notify=healthy with the default start timeout", () => {
    expect(
      hits(
        "[Container]\nImage=vllm/vllm-openai\nNotify=healthy\nExec=--model /m\n[Service]\nRestart=always\n",
        "quadlet",
      ),
    ).toEqual(["start-timeout@3"]);
  });
});
