// A compose service added beside the old one is a new launch, not the old one renamed: none of the old
// service's flags are "dropped" by it. A lone service renamed is still compared. Real git, the CLI's preflight.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const svc = (name: string, flags: string) =>
  `  ${name}:\n    image: ghcr.io/ggml-org/llama.cpp:server-cuda\n    command: ${flags}\n`;
const MAIN = "-m /models/q.gguf --port 8000 -fa on --jinja";

async function drops(files: Record<string, string>): Promise<[string | undefined, unknown][]> {
  const r = tempRepo();
  repos.push(r);
  const base = r.commit("one service", { "compose.yaml": `services:\n${svc("llama", MAIN)}` });
  r.commit("change", files);
  let out = "";
  await main(["preflight", "--json", "--base", base], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: r.dir,
  });
  return (JSON.parse(out) as Report).findings
    .filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass")
    .map((f) => [f.data?.part as string | undefined, f.data?.flag ?? f.status]);
}

describe("preflight.dropped-flags: a service added beside the old one", () => {
  it("is a new launch: nothing of the old service is dropped by it", async () => {
    const got = await drops({
      "compose.yaml": `services:\n${svc("llama", MAIN)}${svc("llama-draft", "-m /models/d.gguf --port 8001")}`,
    });
    expect(got).toEqual([["llama-draft", "skip"]]);
  });

  it("still compares a lone service renamed, and the old service's own drop", async () => {
    expect(
      await drops({ "compose.yaml": `services:\n${svc("server", "-m /models/q.gguf --port 8000 -fa on")}` }),
    ).toEqual([["server", "--jinja"]]);
  });
});
