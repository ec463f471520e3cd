// llama-server's double on the network: it listens before the model loads and answers 503 "Loading
// model" until then, like the real one; then /health, /v1/models and /v1/chat/completions (tools only
// with --jinja). The model file is read for real inside the container.
import { closeSync, openSync, readSync } from "node:fs";
import { createServer } from "node:http";
import type { Step } from "./boot.js";
import { LlamaArgvError, llamaBoot, llamaModels, llamaPlan, toolsRefusal, type ModelFile } from "./llama.js";

function modelFile(path: string): ModelFile {
  try {
    const fd = openSync(path, "r");
    const magic = Buffer.alloc(4);
    readSync(fd, magic, 0, 4, 0);
    closeSync(fd);
    return magic.toString("latin1") === "GGUF" ? "ok" : "not-gguf";
  } catch {
    return "missing";
  }
}

export function serveLlama(args: readonly string[]): void {
  let plan;
  try { plan = llamaPlan(args, process.env); } catch (e) {
    if (!(e instanceof LlamaArgvError)) throw e;
    process.stderr.write(`${e.message}\nusage: /app/llama-server [options]\n\nto show complete usage, run with -h\n`);
    process.exit(1);
  }
  const p = plan;
  let loaded = false;
  const started = Math.floor(Date.now() / 1000);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "/").split("?")[0];
      const reply = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(body);
        process.stderr.write(`srv  log_server_r: request: ${req.method} ${url} ${req.socket.remoteAddress} ${status}\n`);
      };
      if (!loaded) return reply(503, JSON.stringify({ error: { code: 503, message: "Loading model", type: "unavailable_error" } }));
      if (p.apiKey && url !== "/health" && req.headers.authorization !== `Bearer ${p.apiKey}`) return reply(401, JSON.stringify({ error: { code: 401, message: "Invalid API Key", type: "authentication_error" } }));
      if (url === "/health") return reply(200, JSON.stringify({ status: "ok" }));
      if (url === "/v1/models" && req.method === "GET") return reply(200, llamaModels(p, started));
      if (url === "/v1/chat/completions" && req.method === "POST") {
        const body = Buffer.concat(chunks).toString("utf8");
        const refused = toolsRefusal(p, body);
        if (refused) return reply(500, refused);
        return reply(200, JSON.stringify({ object: "chat.completion", created: Math.floor(Date.now() / 1000), model: p.alias, choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 8, completion_tokens: 1, total_tokens: 9 } }));
      }
      return reply(404, JSON.stringify({ error: { code: 404, message: "File Not Found", type: "not_found_error" } }));
    });
  });
  const play = (s: Step) => {
    if ("listen" in s) server.listen(p.port, p.host);
    else if ("exit" in s) { server.close(); process.exitCode = s.exit; setTimeout(() => process.exit(s.exit), 50); }
    else {
      const text = s.text(new Date());
      process.stderr.write(text);
      if (text.startsWith("main: model loaded")) loaded = true;
    }
  };
  for (const s of llamaBoot(p, modelFile(p.model))) setTimeout(() => play(s), s.at);
  process.on("SIGTERM", () => { process.stderr.write("srv    operator(): operator(): cleaning up before exit...\n"); process.exit(0); });
}
