// The one painter: text in an ANSI SGR colour, or as it is when colour is off (the caller decides, useColour).

/** The styles the terminal report names. */
export const SGR = { red: "31", green: "32", yellow: "33", dim: "2", bold: "1", cyan: "36" } as const;
export type Style = keyof typeof SGR;
export type Paint = (style: Style, s: string) => string;

/** `text` in SGR `code` (`"1;31"`: bold red), reset after; unchanged when `on` is false. */
export function paint(on: boolean, code: string, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/** paint by style name, colour decided once. */
export function painter(on: boolean): Paint {
  return (style, s) => paint(on, SGR[style], s);
}
