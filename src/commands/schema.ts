// `schema`: the JSON Schema of deploy-gate.yml, with the trap rules' ids and reasons (the config layer
// cannot import the rules, which are a stage's; this verb hands them over).
import { jsonSchema } from "../domain/config/json-schema.js";
import { TRAP_RULE_DEFS } from "../stages/preflight/traps/registry.js";

export const configJsonSchema = (): Record<string, unknown> => jsonSchema(TRAP_RULE_DEFS);
