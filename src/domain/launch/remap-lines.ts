// Every line number of a launch model moved at once (a render mapped back to its template, a sourced library's
// lines given back to their file). Pure.
import type { ServeScript } from "./model.js";

/** Every `line`/`endLine` of the model remapped (the model is plain data; a pipeline's pipeTo is visited once). */
export function remapLines(script: ServeScript, to: (line: number) => number): void {
  const seen = new WeakSet<object>();
  const visit = (v: unknown) => {
    if (!v || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) {
      if ((k === "line" || k === "endLine") && typeof x === "number") o[k] = to(x);
      else if (k !== "lines" && k !== "text") visit(x);
    }
  };
  visit(script.engine);
  visit(script.podmanRuns);
  visit(script.commands);
}
