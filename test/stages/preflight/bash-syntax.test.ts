import { describe, expect, it } from "vitest";
import { bashSyntax, parseBashError } from "../../../src/stages/preflight/bash-syntax.js";

describe("preflight.bash-syntax with the real bash -n", () => {
  it("passes a valid script", async () => {
    const f = await bashSyntax("#!/bin/bash\nset -e\npodman run --rm img \\\n  --port 1\n", "s.sh");
    expect(f.status).toBe("pass");
  });

  it("fails with bash's message and the line of the error", async () => {
    const text = "#!/bin/bash\nif true; then\n  echo hi\n\npodman run img\n";
    const f = await bashSyntax(text, "scripts/s.sh");
    expect(f.status).toBe("fail");
    expect(f.line).toBe(6);
    expect(f.summary).toContain("syntax error");
    expect(f.evidence![0]).toMatch(/^scripts\/s\.sh: line 6: syntax error/);
  });

  it("points at an unclosed quote", async () => {
    const f = await bashSyntax('echo "ok"\npodman run img --served-model-name "qwen \\\n  --port 1\n', "s.sh");
    expect(f.status).toBe("fail");
    expect(f.data!.message).toMatch(/unexpected EOF|matching/);
  });

  it("parseBashError reads line and message", () => {
    expect(parseBashError("bash: line 12: syntax error near unexpected token `fi'\n")).toEqual({
      line: 12,
      message: "syntax error near unexpected token `fi'",
    });
  });
});
