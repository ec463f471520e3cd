// verify.models: `/v1/models`, asked from a peer, lists the served model name.
import type { HttpResult } from "../../ports/http/client.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";

export const CHECK = "verify.models";

export function noAnswer(check: string, what: string, r: HttpResult, url: string, via: string): Finding {
  return fail(check, `${what}: no HTTP answer from ${url} (${r.error ?? "unknown error"})`, {
    evidence: [`via ${via}: ${r.error ?? "no answer"} after ${Math.round(r.durationMs)} ms`],
    fix: `check the engine listens on the url's port on an address a peer reaches (a container: published with podman/docker run -p; an engine the unit runs itself: its --host is not 127.0.0.1) and that the port is reachable from a peer; with a firewall between, set peer: in deploy-gate.yml to an SSH host that can reach ${url}`,
  });
}

export interface Asked {
  url: string;
  via: string;
  model: string;
  sentKey: boolean;
}

/** A chat request refused before its contract could be judged (auth, model name, engine error): what to
 *  change. null for a 2xx, whose body the contract judges. Callers keep their own config-gap 400s. */
export function refusal(check: string, what: string, r: HttpResult, reason: string, a: Asked): Finding | null {
  if (r.status === null || (r.status >= 200 && r.status < 300)) return null;
  const { model, sentKey } = a;
  const evidence = [
    `POST ${a.url}/v1/chat/completions via ${a.via}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms`,
    reason,
  ];
  const notChecked = `${what} not checked: ${reason}`;
  const data = { status: r.status, checked: false };
  if (r.status === 401 || r.status === 403) {
    return fail(check, notChecked, {
      evidence,
      data,
      fix: sentKey
        ? "the server refused the key in DEPLOY_GATE_API_KEY: put the server's key (its --api-key or VLLM_API_KEY) there"
        : "the server runs with --api-key: give the gate the key in the env secret DEPLOY_GATE_API_KEY (it is unset)",
    });
  }
  if (r.status === 404) {
    return fail(check, notChecked, {
      evidence,
      data,
      fix: `the server does not serve a model named ${model}: start the engine with --served-model-name ${model} (clients ask for that name), or correct model: in deploy-gate.yml`,
    });
  }
  return fail(check, notChecked, {
    evidence,
    data,
    fix:
      r.status >= 500
        ? "the engine failed the request: read its error in its journal (deploy-gate logs, with --endpoint when the config has several), fix it and rerun deploy-gate verify"
        : `the server refused the request (HTTP ${r.status}) before the contract could be judged: read the message above (a chat-template or request-validation error), fix it and rerun deploy-gate verify`,
  });
}

export function checkModels(r: HttpResult, model: string, url: string, via: string, sentKey = false): Finding {
  if (r.status === null) return noAnswer(CHECK, "/v1/models", r, url, via);
  const evidence = [`GET ${url}/v1/models via ${via}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms`];
  if (r.status === 401 || r.status === 403) {
    return sentKey
      ? fail(
          CHECK,
          `/v1/models answered ${r.status} to the key in DEPLOY_GATE_API_KEY: the server runs with another --api-key`,
          {
            evidence,
            fix: "put the server's key (its --api-key or VLLM_API_KEY) in the env secret DEPLOY_GATE_API_KEY",
          },
        )
      : fail(CHECK, `/v1/models answered ${r.status}: the server runs with --api-key`, {
          evidence,
          fix: "give the gate the key in the env secret DEPLOY_GATE_API_KEY (it is unset)",
        });
  }
  let ids: string[] = [];
  try {
    const json = JSON.parse(r.body) as { data?: { id?: unknown; max_model_len?: unknown }[] };
    ids = (json.data ?? []).map((d) => String(d.id));
  } catch {
    evidence.push(`body: ${r.body.slice(0, 200)}`);
  }
  const data = { models: ids, status: r.status };
  if (r.status !== 200 || !ids.includes(model)) {
    return fail(
      CHECK,
      ids.length
        ? `/v1/models lists ${ids.join(", ")}, not ${model}`
        : `/v1/models gave HTTP ${r.status} with no model list`,
      {
        evidence,
        data,
        fix: `start the engine with --served-model-name ${model} (clients ask for that name), or correct model: in deploy-gate.yml`,
      },
    );
  }
  return pass(CHECK, `/v1/models lists ${model} (asked via ${via})`, { evidence, data });
}

/** The engine behind /v1/models, by its `owned_by` (vLLM "vllm", SGLang "sglang", llama-server "llamacpp"). */
export function engineOf(r: HttpResult | null): "vllm" | "sglang" | "llama.cpp" | null {
  try {
    const owner = (JSON.parse(r?.body ?? "") as { data?: { owned_by?: unknown }[] }).data?.[0]?.owned_by;
    return owner === "vllm" ? "vllm" : owner === "sglang" ? "sglang" : owner === "llamacpp" ? "llama.cpp" : null;
  } catch {
    return null;
  }
}
