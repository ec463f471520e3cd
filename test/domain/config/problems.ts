// The problems a config text is refused with (throws when it is accepted).
import { ConfigError } from "../../../src/domain/config/errors.js";
import { parseConfig } from "../../../src/domain/config/load.js";

export const problems = (text: string) => {
  try {
    parseConfig(text, "deploy-gate.yml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error("expected a ConfigError");
};
