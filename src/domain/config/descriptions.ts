// Hover text for every key of deploy-gate.yml, keyed by path ("*" = any name, "[]" = a list item).
// Kept apart from schema.ts so adding a key there and its description here merge independently;
// test/config/json-schema.test.ts fails for a schema key without one.

const SSH: Record<string, string> = {
  "": "SSH target, completed by ~/.ssh/config as ssh reads it (HostName, User, Port, IdentityFile, ProxyJump, IdentitiesOnly; values here win). The host key is pinned (hostKey or knownHosts, else the user's known_hosts files): an unpinned or changed key is refused. The private key comes from identityFile, else the env DEPLOY_GATE_SSH_KEY (the action's ssh-key input), else ~/.ssh/config's IdentityFile or ~/.ssh/id_*, with ssh-agent (SSH_AUTH_SOCK) too; never argv.",
  address:
    "Host name, IP address, or a Host alias of ~/.ssh/config (the action's host input overrides it, so it can live in a secret).",
  port: "SSH port (default 22, or Port from ~/.ssh/config for this host).",
  user: "The user deploy-gate logs in as (default: User from ~/.ssh/config for this host, else the local user, as ssh).",
  hostKey:
    'The host key pin: an OpenSSH fingerprint "SHA256:..." (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub on the host).',
  knownHosts: "The host key pin as known_hosts line(s), e.g. the output of ssh-keyscan checked out of band.",
  identityFile:
    "Path of the SSH private key on the machine running deploy-gate (relative to the config file, or absolute). Default: the env DEPLOY_GATE_SSH_KEY.",
};
const sshKeys = (prefix: string, what: string) =>
  Object.fromEntries(Object.entries(SSH).map(([k, v]) => [k ? `${prefix}.${k}` : prefix, k ? v : `${what} ${v}`]));

export const DESCRIPTIONS: Record<string, string> = {
  "": "deploy-gate configuration: the endpoints this repository serves, their serve scripts, hosts and contracts.",
  version: "Config format version; must be 1.",
  endpoints: "The endpoints, by name (the name a workflow matrix fans out over and --endpoint selects).",
  "endpoints.*":
    "One endpoint: a serve script, where it runs, and the contracts it keeps. preflight needs only script (and contracts); run and verify need host, service, container, install, url and model.",
  "endpoints.*.hooks":
    "Executables run on the machine running the gate (as Kamal's hooks), with DEPLOY_GATE_ENDPOINT, _COMMAND, _REF, _SHA and _HOSTS in their environment; 10 minutes each at most.",
  "endpoints.*.hooks.pre-deploy":
    "Run before run/rollback touches a host; a non-zero exit stops the deploy. Path relative to this config file.",
  "endpoints.*.hooks.post-deploy":
    "Run after run/rollback with DEPLOY_GATE_VERDICT (pass, warn or fail) too; a non-zero exit is a warning. Path relative to this config file.",
  "endpoints.*.script":
    "The serve script, relative to this config file. Used by preflight (bash -n and shellcheck for a shell script, contracts, dropped flags, traps). A compose file or Kubernetes manifest (.yml/.yaml) named here is read as one.",
  "endpoints.*.unit":
    "The systemd unit file in the repository, relative to this config file; the trap rules read it. Named without script, it is the file that starts the engine (its ExecStart=; a .container here is read as a quadlet).",
  "endpoints.*.quadlet":
    "A podman quadlet (.container) in the repository that starts the engine, relative to this config file, for an endpoint with no serve script.",
  "endpoints.*.part":
    'In a compose file or Kubernetes manifest that starts several engines (named as script, or started by the unit\'s compose up): the one this endpoint is, by compose service name or Kind/name/container (e.g. "Deployment/qwen/vllm"); the service compose up names, else the first engine, when absent.',
  "endpoints.*.service": 'The systemd unit restarted and watched on the host, e.g. "frank-archon.service".',
  "endpoints.*.container":
    "The podman container name the unit runs. Not needed when the unit or script runs compose up (podman-compose, podman compose, docker compose): the engine service's container is named by the compose tool's own rule (container_name:, else <project>_<service>_1 for podman-compose, <project>-<service>-1 for docker compose).",
  ...sshKeys("endpoints.*.host", "The GPU host to deploy to and verify on."),
  ...sshKeys("endpoints.*.host.jump", "A jump host to reach the host through (like ssh -J)."),
  "endpoints.*.hosts":
    "A fleet instead of host: one entry per replica of this endpoint, rolled out canary first (see rollout).",
  ...sshKeys("endpoints.*.hosts[]", "One replica of the fleet."),
  ...sshKeys("endpoints.*.hosts[].jump", "A jump host to reach this replica through (like ssh -J)."),
  "endpoints.*.hosts[].name": "The replica's short name in reports and --hosts (default: its address).",
  "endpoints.*.hosts[].url": "This replica's URL where it differs from the endpoint's url.",
  "endpoints.*.rollout":
    "How a fleet rolls out: the canary host(s) alone, then batches in parallel; the first failure halts it.",
  "endpoints.*.rollout.canary": "Hosts deployed and verified alone first (default 1).",
  "endpoints.*.rollout.batch": "Hosts deployed in parallel in each later step (default 1).",
  "endpoints.*.rollout.pause": 'Wait between steps: a duration such as "30s" (default 0, none).',
  "endpoints.*.replicas": "What verify.replicas tolerates between the hosts of a fleet.",
  "endpoints.*.replicas.kvTolerance":
    "How far a replica's KV pool may be from the fleet's median, as a fraction (default 0.02).",
  ...sshKeys("endpoints.*.peer", "A host to run the HTTP checks from (with curl), as clients reach the endpoint."),
  ...sshKeys("endpoints.*.peer.jump", "A jump host to reach the peer through (like ssh -J)."),
  "endpoints.*.kubernetes":
    "The engine's pods, for verify over HTTP alone with kubectl (its usual kubeconfig): restarts, live args against manifest, env, image digest, and for a failure the container's logs and the pod's events.",
  "endpoints.*.kubernetes.namespace": "The pods' namespace.",
  "endpoints.*.kubernetes.selector":
    "A label selector for the engine's pods, as kubectl -l takes it (--selector overrides it, e.g. with a canary's pod-template-hash).",
  "endpoints.*.kubernetes.container": "The engine's container in the pod.",
  "endpoints.*.kubernetes.manifest":
    "The Deployment (or Rollout, StatefulSet) YAML in the repository that sets the container's args, relative to this config file: verify.argv compares the live args with it.",
  "endpoints.*.install": "Files written atomically on the host at the deployed ref (never the work tree).",
  "endpoints.*.install[]": "One file to install.",
  "endpoints.*.install[].from": "Path in the repository, relative to this config file.",
  "endpoints.*.install[].to": "Absolute path on the host.",
  "endpoints.*.install[].mode": 'Octal file mode, e.g. "0755" for a script (default "0644").',
  "endpoints.*.url": "The endpoint as a peer reaches it, http(s)://host:port (never localhost on the serving host).",
  "endpoints.*.model": "The served model name /v1/models must list.",
  "endpoints.*.boot": "How long deploy waits for the new container to serve, and how often it looks.",
  "endpoints.*.boot.timeout":
    'Boot deadline: a duration such as "20m", "90s", "1h30m" or a number of seconds (default 20m).',
  "endpoints.*.boot.poll": 'Poll interval while booting: a duration such as "5s" (default 5s).',
  "endpoints.*.rollback": "The known-good ref to roll back to.",
  "endpoints.*.rollback.ref": "A tag or commit; preflight checks that it exists and that its own script passes.",
  "endpoints.*.rollback.auto": "Deploy and verify rollback.ref when a run fails (the job still fails). Default false.",
  "endpoints.*.lock": "The host-side deploy lock (one deploy per endpoint at a time).",
  "endpoints.*.lock.staleAfter":
    'A held lock is stale once its holder has stopped refreshing it for 2 minutes (or this, if shorter); a lock with a recent heartbeat never is, whatever its age. A stale lock is reported with the command that clears it (default "1h").',
  "endpoints.*.contracts":
    "What clients rely on: checked in the script by preflight and on the live endpoint by verify.",
  "endpoints.*.contracts.flags":
    'Engine flags (with their values) the script must carry, e.g. "--reasoning-parser qwen3", "--enable-auto-tool-choice".',
  "endpoints.*.contracts.flags[]": 'One flag: "--flag" or "--flag value".',
  "endpoints.*.contracts.env": "Environment variables that must reach the container.",
  "endpoints.*.contracts.env[]": "An environment variable name.",
  "endpoints.*.contracts.kv": "KV cache capacity floor, read from the boot log.",
  "endpoints.*.contracts.kv.minTokens": "Minimum KV cache tokens.",
  "endpoints.*.contracts.kv.requests": "Full-length requests (of --max-model-len) the KV pool must hold at once.",
  "endpoints.*.contracts.restarts": "Highest NRestarts of the unit accepted after a deploy (default 0).",
  "endpoints.*.contracts.thinking":
    "Reasoning arrives in its own field, not in content, streamed too, and none with enable_thinking false (default false).",
  "endpoints.*.contracts.tools":
    "Tool calls work: tool_choice auto, required, a named function and none; two calls in one turn; streamed; a tool result answered (default false).",
  "endpoints.*.contracts.structured":
    "response_format json_schema returns JSON valid against the schema: true for the built-in schema, or { schema: <a JSON Schema object> } (default false).",
  "endpoints.*.contracts.decode": "Decode speed floor, measured streamed from the usage counters at each prompt depth.",
  "endpoints.*.contracts.decode.minTokPerS":
    "Floor in tokens per second: one number for every depth, or a list with one per depth.",
  "endpoints.*.contracts.decode.minTokPerS[]": "Floor for the depth at the same position.",
  "endpoints.*.contracts.decode.depths": "Prompt depths in tokens (default [166, 1087, 4064]).",
  "endpoints.*.contracts.decode.depths[]": "A prompt depth in tokens (16 to 1,000,000).",
  "endpoints.*.contracts.decode.maxTokens":
    "Tokens generated per measurement (default 256; at least 256 for a steady rate).",
  "endpoints.*.contracts.metrics":
    "Dashboard and alert-rule files (repository paths) whose metric names must exist in the live /metrics.",
  "endpoints.*.contracts.metrics[]": "A file path, e.g. grafana/vllm.json or alerts/vllm.rules.yml.",
  "endpoints.*.slo":
    "Latency under load (opt-in): a bounded load, or a vllm bench serve result, judged against limits and the previous deploy's figures.",
  "endpoints.*.slo.concurrency": "Requests in flight at once (default 4).",
  "endpoints.*.slo.requests": "Requests in all (default 32).",
  "endpoints.*.slo.promptTokens": "Prompt length in tokens (default 512).",
  "endpoints.*.slo.maxTokens": "Tokens generated per request (default 128).",
  "endpoints.*.slo.limits": "Declared limits; any left out is not judged.",
  "endpoints.*.slo.limits.ttftP95Ms": "Highest time to first token, p95, in ms.",
  "endpoints.*.slo.limits.itlP95Ms": "Highest inter-token latency, p95, in ms.",
  "endpoints.*.slo.limits.e2eP95Ms": "Highest end-to-end request time, p95, in ms.",
  "endpoints.*.slo.limits.maxErrorRate": "Highest share of failed requests (0 to 1).",
  "endpoints.*.slo.limits.minOutputTokPerS": "Lowest output tokens per second over the run.",
  "endpoints.*.slo.tolerance":
    "How much worse than the previous deploy's figures on the host a p95 or tok/s may be (fraction, default 0.1).",
  "endpoints.*.slo.results":
    "A vllm bench serve --save-result JSON or a GuideLLM report (path relative to the config) to judge instead of running the load step.",
  "endpoints.*.contracts.plan": "Fork-specific boot lines: a number each must show, judged against min/max.",
  "endpoints.*.contracts.plan[]": "One plan line.",
  "endpoints.*.contracts.plan[].name": "Short name (lowercase letters, digits, -).",
  "endpoints.*.contracts.plan[].pattern":
    'Regular expression whose group 1 is the number, e.g. "expert cache space +[0-9.]+ GiB +([0-9,]+) slots".',
  "endpoints.*.contracts.plan[].min": "Lowest value accepted.",
  "endpoints.*.contracts.plan[].max": "Highest value accepted.",
  "endpoints.*.traps": "Trap rule levels (off, warn, fail), by rule id; see the docs/checks.md's trap table.",
  "endpoints.*.traps.*": "off, warn or fail.",
  "endpoints.*.images":
    'What an image does with its arguments, by image reference without tag (e.g. "docker.io/tcclaviger/vllm").',
  "endpoints.*.images.*": "Facts about one image.",
  "endpoints.*.images.*.entrypointServes":
    "The image's entrypoint already runs vllm serve (so the script must not pass serve again).",
};
