import { describe, expect, it } from "vitest";
import { alignTemplate, bestLine, templatePattern } from "../../../src/domain/launch/template-align.js";

const lines = (n: number, a: ReturnType<typeof alignTemplate>) => Array.from({ length: n }, (_, i) => a.line(i + 1));

describe("alignTemplate", () => {
  it("maps a rendered line to the template line with its text, a value an action filled to the line above it", () => {
    const source = ["args:", "  - --model", "  - {{ .Values.model }}", "  - --port", '  - "8000"'];
    const rendered = ["args:", "- --model", "- Qwen/Qwen3-8B", "- --port", '- "8000"'];
    const a = alignTemplate(rendered, source);
    expect(lines(5, a)).toEqual([1, 2, 2, 4, 5]);
    expect([1, 2, 3, 4, 5].map(a.matched)).toEqual([true, true, false, true, true]);
  });

  it("matches a line with actions by the text around them, past the branches not taken", () => {
    const source = [
      "args:",
      '  - "--served-model-name={{ .Values.model.servedName | default .Values.model.name }}"',
      "  {{- if .Values.lora }}",
      '  - "--enable-lora"',
      "  {{- end }}",
      '  - "--dtype={{ required "dtype" .Values.dtype }}"',
      '  - "--kv-cache-dtype={{ .Values.kvCacheDtype }}"',
    ];
    const rendered = ["args:", '- "--served-model-name=qwen"', '- "--dtype=half"', '- "--kv-cache-dtype=auto"'];
    expect(lines(4, alignTemplate(rendered, source))).toEqual([1, 2, 6, 7]);
  });

  it("of a block written in both branches of an if, takes the copy rendered whole", () => {
    const block = (first: string[]) => [
      "command:",
      '  - "sh"',
      '  - "-c"',
      "  - |",
      ...first,
      "    pip install bitsandbytes",
      "    exec vllm serve {{ .Values.model | quote }} \\",
      "      --host {{ .Values.host | quote }} \\",
      "      --port {{ .Values.port | quote }}",
    ];
    const source = [
      "{{- if .Values.dropCaches }}",
      ...block(["    sync; echo 3 > /proc/sys/vm/drop_caches || true"]),
      "{{- else }}",
      ...block([]),
      "{{- end }}",
    ];
    const rendered = [
      "command:",
      '- "sh"',
      '- "-c"',
      "- |",
      "pip install bitsandbytes",
      'exec vllm serve "Qwen/Qwen3-8B" \\',
      '--host "0.0.0.0" \\',
      '--port "8000"',
    ];
    // the else branch: source lines 12-19
    expect(lines(8, alignTemplate(rendered, source))).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it("maps every item a range writes to the range's line, not to an else branch's copy of it", () => {
    const source = [
      "args:",
      '  - "--port"',
      '  - "{{ .Values.port }}"',
      "{{- range $key, $value := .Values.args }}",
      "  {{- if $value }}",
      '  - "--{{ $key }}"',
      '  - "{{ $value }}"',
      "  {{- else }}",
      '  - "--{{ $key }}"',
      "  {{- end }}",
      "{{- end }}",
      "resources: {}",
    ];
    const rendered = ["args:", '- "--port"', '- "80"', '- "--hf-file"', '- "x.gguf"', '- "--parallel"', '- "2"'];
    rendered.push("resources: {}");
    expect(lines(8, alignTemplate(rendered, source))).toEqual([1, 2, 2, 6, 6, 6, 6, 12]);
  });
});

describe("templatePattern", () => {
  it("needs literal text of the line's own to say which line it is", () => {
    expect(templatePattern("  - {{ .Values.model }}")).toBeNull();
    expect(templatePattern("{{ . | quote }} \\")).toBeNull();
    expect(templatePattern("  - --port")).toBeNull(); // no action: compared as text
    expect(templatePattern('  - "--{{ $key }}"')!.test('- "--hf-repo"')).toBe(true);
    expect(templatePattern("--max-model-len {{ .Values.len | quote }} \\")!.test('--max-model-len "4096" \\')).toBe(
      true,
    );
    expect(templatePattern("--max-model-len {{ .Values.len }} \\")!.test("--port 8000 \\")).toBe(false);
  });
});

describe("bestLine", () => {
  it("takes the line with the very text, else the pattern with the most literal text", () => {
    const tpl = ["--{{ $key }} \\", "--model-path={{ $path }} \\", "--host=0.0.0.0 \\"];
    expect(bestLine("--model-path=/models/x \\", tpl)).toBe(1);
    expect(bestLine("--host=0.0.0.0 \\", tpl)).toBe(2);
    expect(bestLine("--trust-remote-code \\", tpl)).toBe(0);
    expect(bestLine("--port=1 \\", tpl, 1)).toBe(-1);
  });
});

describe("alignTemplate on what kubectl kustomize writes", () => {
  it("drops trailing comments, and finds keys it sorted out of the source's order (the first after the parent's line)", () => {
    const source = [
      "containers:", // 1
      "  - name: server", // 2
      "    args:", // 3
      "      - --port", // 4
      "      - --metrics # exposes /metrics", // 5
      "    ports:", // 6
      "      - containerPort: 8080", // 7
      "    livenessProbe:", // 8
      "      initialDelaySeconds: 120", // 9
      "      periodSeconds: 30", // 10
    ];
    // kustomize's output: the same container, keys sorted, the comment gone
    const rendered = [
      "containers:",
      "- args:",
      "  - --port",
      "  - --metrics",
      "  livenessProbe:",
      "    initialDelaySeconds: 120",
      "    periodSeconds: 30",
      "  name: server",
      "  ports:",
      "  - containerPort: 8080",
    ];
    const at = lines(10, alignTemplate(rendered, source));
    // the flags (the commented one too), the probe, the ports: each at its own line
    expect([3, 4, 5, 6, 7, 9, 10].map((n) => at[n - 1])).toEqual([4, 5, 8, 9, 10, 6, 7]);
    // helm keeps the comment a template line carries: matched all the same
    const tpl = [
      "args:",
      "  {{- if .Values.x }}",
      '  - "--x={{ .Values.x }}"',
      "  {{- end }}",
      '  - "--show=0.10" # temp fix',
    ];
    expect(lines(2, alignTemplate(["args:", '- "--show=0.10" # temp fix'], tpl))).toEqual([1, 5]);
  });
});
