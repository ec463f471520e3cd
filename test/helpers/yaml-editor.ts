// What an editor with the YAML language server (redhat's yaml-language-server, the engine of the VS Code
// YAML extension) says about a deploy-gate.yml: its diagnostics and its hover text, from our schema.
import { TextDocument } from "vscode-languageserver-textdocument";
import { getLanguageService } from "yaml-language-server/lib/esm/languageservice/yamlLanguageService.js";
import { SCHEMA_ID } from "../../src/domain/config/json-schema.js";
import { configJsonSchema as jsonSchema } from "../../src/commands/schema.js";

const schema = JSON.stringify(jsonSchema());
const service = getLanguageService({
  schemaRequestService: async (uri: string) => {
    if (uri === SCHEMA_ID) return schema;
    throw new Error(`the test editor fetches only deploy-gate's schema, not ${uri}`);
  },
  workspaceContext: { resolveRelativePath: (rel: string, res: string) => new URL(rel, res).toString() },
} as never);
service.configure({
  validate: true,
  hover: true,
  completion: true,
  schemas: [{ uri: SCHEMA_ID, fileMatch: ["*deploy-gate.yml"] }],
} as never);

let docs = 0;
const doc = (text: string) => TextDocument.create(`file:///editor/${docs++}/deploy-gate.yml`, "yaml", 1, text);

export async function editorProblems(text: string): Promise<string[]> {
  return (await service.doValidation(doc(text), false)).map((d) => `${d.range.start.line + 1}: ${d.message}`);
}

export async function editorHover(text: string, line: number, character: number): Promise<string> {
  const h = await service.doHover(doc(text), { line: line - 1, character });
  const c = h?.contents as { value?: string } | undefined;
  return c?.value ?? "";
}
