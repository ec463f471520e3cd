// The pure checks: each verdict, its arithmetic and its fix, from real-shaped inputs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HttpResult } from "../../../src/ports/http/client.js";
import { checkContainer } from "../../../src/stages/verify/container.js";
import { checkEnv } from "../../../src/stages/verify/env.js";
import { checkKvCapacity } from "../../../src/stages/verify/kv-capacity.js";
import { checkModels } from "../../../src/stages/verify/models.js";
import { checkPlan } from "../../../src/stages/verify/plan.js";
import { checkRestarts } from "../../../src/stages/verify/restarts.js";
import { checkSpecDecode } from "../../../src/stages/verify/spec-decode.js";
import { checkThinkingResult } from "../../../src/stages/verify/thinking.js";
import { checkToolsResult } from "../../../src/stages/verify/tools.js";
import type { ContainerFacts } from "../../../src/stages/verify/facts-parse.js";

const log = (name: string) =>
  readFileSync(new URL(`../../fixtures/journal/classes/${name}`, import.meta.url), "utf8").split("\n");
const http = (status: number | null, body: unknown): HttpResult => ({
  status,
  body: typeof body === "string" ? body : JSON.stringify(body),
  error: status === null ? "connection refused" : null,
  durationMs: 12,
});
const chat = (message: Record<string, unknown>, finish = "stop") =>
  http(200, { choices: [{ message, finish_reason: finish }] });

describe("verify.restarts", () => {
  it("passes within the bound and fails a loop with how to read the cause", () => {
    expect(checkRestarts({ nRestarts: 1, nRestartsRaw: "1", activeState: "active" }, "a.service", 1).status).toBe(
      "pass",
    );
    const f = checkRestarts({ nRestarts: 7, nRestartsRaw: "7", activeState: "activating" }, "a.service", 0);
    expect(f).toMatchObject({ status: "fail", data: { nRestarts: 7, bound: 0 } });
    expect(f.fix).toMatch(/journalctl -u a\.service/);
    expect(checkRestarts({ nRestarts: null, nRestartsRaw: "", activeState: null }, "a.service", 0).status).toBe("fail");
    expect(checkRestarts({ nRestarts: 0, nRestartsRaw: "0", activeState: null }, null, 0).status).toBe("skip");
  });

  it("counts only restarts above the one the deploy's restart kept from the crash loop it replaced", () => {
    const kept = checkRestarts({ nRestarts: 1, nRestartsRaw: "1", activeState: "active" }, "a.service", 0, 1);
    expect(kept).toMatchObject({ status: "pass", data: { nRestarts: 0, kept: 1 } });
    expect(kept.evidence?.join("\n")).toMatch(/1 of them kept from the crash loop/);
    const more = checkRestarts({ nRestarts: 3, nRestartsRaw: "3", activeState: "active" }, "a.service", 0, 1);
    expect(more).toMatchObject({ status: "fail", data: { nRestarts: 2 } });
    expect(more.summary).toMatch(/restarted 2 time\(s\)/);
    // a count below the baseline was flushed since: every restart is the new engine's
    expect(checkRestarts({ nRestarts: 0, nRestartsRaw: "0", activeState: "active" }, "a.service", 0, 1).status).toBe(
      "pass",
    );
  });
});

describe("verify.container", () => {
  const c: ContainerFacts = {
    id: "abc123def456".padEnd(64, "0"),
    name: "ctr",
    createdText: "2026-11-29T22:00:00Z",
    createdMs: Date.parse("2026-11-29T22:00:00Z"),
    startedMs: null,
    status: "running",
    running: true,
    pid: 9,
    configEnv: [],
  };
  const base = {
    container: c,
    inspectError: null,
    hostNowMs: Date.parse("2026-11-29T22:10:00Z"),
    state: null,
    stateError: null,
  };
  const dep = (startedAt: string, containerId: string | null = null) => ({
    endpoint: "e",
    ref: "r",
    sha: "s",
    startedAtHostMs: Date.parse(startedAt),
    journalCursor: null,
    containerId,
    containerCreatedAtHostMs: null,
  });
  it("passes a container created after the deploy began, with its identity and age", () => {
    const f = checkContainer(base, "ctr", dep("2026-11-29T21:59:30Z"));
    expect(f.status).toBe("pass");
    expect(f.evidence![0]).toMatch(/abc123def456 \(ctr\) running, created .* 10 min ago/);
  });
  it("fails an old container still answering, and one replaced after the deploy", () => {
    expect(checkContainer(base, "ctr", dep("2026-11-29T22:05:00Z")).summary).toMatch(/predates the deploy by 5 min/);
    expect(checkContainer(base, "ctr", dep("2026-11-29T21:59:00Z", "fff000")).summary).toMatch(
      /another container answers/,
    );
    expect(checkContainer({ ...base, container: { ...c, running: false, status: "exited" } }, "ctr", null).status).toBe(
      "fail",
    );
    expect(checkContainer({ ...base, container: null, inspectError: "no such object" }, "ctr", null).status).toBe(
      "fail",
    );
    expect(
      checkContainer({ ...base, container: null, inspectError: "no such object" }, "ctr", null, "e.service").fix,
    ).toMatch(
      /^the unit is not running a container named ctr .*systemctl status e\.service; podman ps -a --filter name=ctr$/,
    );
  });
  it("verify alone: dated against the host's state record, a warning without one", () => {
    const state = {
      schema: 1 as const,
      endpoint: "e",
      ref: "v1",
      sha: "abc",
      deployedAt: Date.parse("2026-11-29T21:59:59Z") / 1000,
      by: "ci",
      files: [],
      previous: null,
    };
    expect(checkContainer({ ...base, state }, "ctr", null)).toMatchObject({
      status: "pass",
      data: { stateRecord: { ref: "v1" } },
    });
    expect(checkContainer(base, "ctr", null).status).toBe("warn");
  });
});

describe("verify.plan and verify.kv-capacity", () => {
  it("puts every plan line in the data and warns when capture exceeds the estimate, with both numbers", () => {
    const f = checkPlan(log("v1-2026-merged-kv-ready.log"), "ctr");
    expect(f.status).toBe("warn");
    expect(f.summary).toBe("CUDA graph capture took 1.61 GiB, more than the 1.58 GiB estimate the KV plan charged");
    expect(f.data).toMatchObject({
      kvTokens: 398_658,
      maxModelLen: 65_536,
      maxConcurrency: 6.08,
      availableKvGiB: 2,
      compileSeconds: 5.34,
      modelLoadGiB: 1.19,
    });
  });
  it("reads an expert-offload fork's budget and arena lines", () => {
    const f = checkPlan(
      [
        "(EngineCore pid=7) INFO 10-05 10:00:00 [planner.py:88] expert offload plan: budget (total x util)   59.73 GiB, model 12.1 GiB",
        "(EngineCore pid=7) INFO 10-05 10:00:01 [planner.py:95] expert cache space   41.20 GiB   1,536 slots",
        "(EngineCore pid=7) INFO 10-05 10:00:02 [kv_cache_utils.py:1311] GPU KV cache size: 313,002 tokens, Maximum concurrency for 32,768 tokens per request: 9.55x",
      ],
      "ctr",
    );
    expect(f.status).toBe("pass");
    expect(f.data).toMatchObject({ budgetGiB: 59.73, expertCacheGiB: 41.2, expertSlots: 1536, kvTokens: 313_002 });
  });
  it("fails when the boot's KV line is not in the journal", () => {
    expect(checkPlan(["(APIServer pid=1) INFO 01-01 00:00:00 [x.py:1] hello"], "ctr").status).toBe("fail");
  });
  it("shows the arithmetic: requests x max-model-len from the live argv, and the minimum", () => {
    const f = checkKvCapacity({ kvTokens: 398_658, maxModelLen: 65_536 }, 131_072, { requests: 4, minTokens: 300_000 });
    expect(f.status).toBe("fail");
    expect(f.summary).toBe(
      "KV pool too small: 398,658 KV tokens < 4 request(s) x 131,072 max-model-len = 524,288 (short 125,630; 3.04 full-length requests fit)",
    );
    expect(f.data).toMatchObject({ maxModelLenFrom: "argv", neededTokens: 524_288 });
    const min = checkKvCapacity({ kvTokens: 200_000, maxModelLen: 8192 }, null, { minTokens: 300_000 });
    expect(min.summary).toMatch(/200,000 KV tokens < minTokens 300,000 \(short 100,000\)/);
    expect(
      checkKvCapacity({ kvTokens: 398_658, maxModelLen: 65_536 }, null, { requests: 6, minTokens: 300_000 }).status,
    ).toBe("pass");
  });
});

describe("verify.env", () => {
  const env = new Map([
    ["VLLM_LOGGING_LEVEL", "DEBUG"],
    ["HF_TOKEN", "hf_abc"],
  ]);
  it("shows values with secrets masked, and names the missing knob with where to add it", () => {
    expect(checkEnv(env, ["VLLM_LOGGING_LEVEL", "HF_TOKEN"], null, "s.sh")).toMatchObject({
      status: "pass",
      evidence: ["VLLM_LOGGING_LEVEL=DEBUG", "HF_TOKEN=***"],
    });
    const f = checkEnv(env, ["R4D_LRU_GATHER_CHUNKS"], null, "s.sh");
    expect(f).toMatchObject({ status: "fail", data: { missing: ["R4D_LRU_GATHER_CHUNKS"] } });
    expect(f.fix).toMatch(/add -e R4D_LRU_GATHER_CHUNKS=\.\.\. to the podman run in s\.sh/);
  });
});

describe("HTTP contract checks", () => {
  it("verify.models lists the served name or says what to set", () => {
    expect(checkModels(http(200, { data: [{ id: "qwen" }] }), "qwen", "http://h:1", "runner").status).toBe("pass");
    expect(checkModels(http(200, { data: [{ id: "/models/qwen" }] }), "qwen", "http://h:1", "runner").fix).toMatch(
      /--served-model-name qwen/,
    );
    expect(checkModels(http(null, ""), "qwen", "http://h:1", "runner").summary).toMatch(
      /no HTTP answer .*connection refused/,
    );
    // a 401 says whether the gate sent a key: unset, or not the server's
    expect(checkModels(http(401, { error: "Unauthorized" }), "qwen", "http://h:1", "runner").fix).toMatch(
      /DEPLOY_GATE_API_KEY \(it is unset\)/,
    );
    expect(checkModels(http(401, { error: "Unauthorized" }), "qwen", "http://h:1", "runner", true).summary).toMatch(
      /answered 401 to the key in DEPLOY_GATE_API_KEY: the server runs with another --api-key/,
    );
  });
  it("verify.thinking names the likely cause", () => {
    const live = { reasoningParser: null, engineTemplateFlags: [] };
    expect(checkThinkingResult(chat({ content: "42", reasoning: "17+25=42" }), "u", "runner", live).status).toBe(
      "pass",
    );
    expect(
      checkThinkingResult(chat({ content: "42", reasoning: null, reasoning_content: "17+25" }), "u", "runner", live)
        .status,
    ).toBe("pass");
    const inline = checkThinkingResult(
      chat({ content: "<think>17+25</think>42", reasoning: null }),
      "u",
      "runner",
      live,
    );
    expect(inline.fix).toMatch(/no --reasoning-parser/);
    const kw = checkThinkingResult(chat({ content: "42", reasoning: null }), "u", "runner", {
      reasoningParser: "qwen3",
      engineTemplateFlags: ["--enable-thinking"],
    });
    expect(kw.fix).toMatch(/--enable-thinking are chat-template variables/);
  });
  it("verify.tools reports a 400 as the config gap it is", () => {
    const body = readFileSync(new URL("../../fixtures/journal/classes/tools-400-v0101.json", import.meta.url), "utf8");
    const f = checkToolsResult(http(400, body), "u", "runner", { autoToolChoice: false, toolCallParser: null });
    expect(f.summary).toMatch(/refused \(HTTP 400\): the server is not configured for auto tool choice/);
    expect(f.fix).toMatch(/config gap, not a model fault: add --enable-auto-tool-choice --tool-call-parser <parser>/);
    const ok = chat(
      {
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      "tool_calls",
    );
    expect(checkToolsResult(ok, "u", "runner", { autoToolChoice: true, toolCallParser: "qwen3_xml" }).status).toBe(
      "pass",
    );
  });
  it("verify.spec-decode proves engagement from /metrics, else the log line, else fails", () => {
    const metrics = http(
      200,
      [
        'vllm:spec_decode_num_drafts_total{model_name="q",engine="0"} 10.0',
        'vllm:spec_decode_num_draft_tokens_total{model_name="q",engine="0"} 20.0',
        'vllm:spec_decode_num_accepted_tokens_total{model_name="q",engine="0"} 14.0',
      ].join("\n"),
    );
    expect(checkSpecDecode("{}", metrics, []).summary).toBe(
      "speculative decoding engaged (metrics): mean acceptance length 2.40, acceptance rate 70.0%",
    );
    const line =
      "(APIServer pid=1) INFO 10-02 10:00:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.80, Accepted throughput: 1.00 tokens/s, Drafted throughput: 2.00 tokens/s, Accepted: 18 tokens, Drafted: 30 tokens, Per-position acceptance rate: 0.760, 0.550, 0.330, Avg Draft acceptance rate: 57.0%";
    expect(checkSpecDecode("{}", http(200, "# nothing\n"), [line])).toMatchObject({
      status: "pass",
      data: { source: "log" },
    });
    expect(checkSpecDecode("{}", http(200, 'vllm:spec_decode_num_drafts_total{a="b"} 0.0\n'), []).status).toBe("fail");
    expect(checkSpecDecode(null, null, []).status).toBe("skip");
  });
});
