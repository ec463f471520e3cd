// Natural prompts of a given depth for verify.decode. Varied prose, never a repeated word list:
// repeated lists are loop-prone and make an expert-offload cache look fast (seed 003). Pure, deterministic.

const PEOPLE = [
  "The harbor clerk",
  "A retired surveyor",
  "The night nurse",
  "Our orchard keeper",
  "The ferry pilot",
  "A young archivist",
  "The village baker",
  "An old radio operator",
  "The museum guard",
  "A traveling glassblower",
  "The lighthouse engineer",
  "A beekeeper from the valley",
];
const PLACES = [
  "in Lisbon",
  "near the northern pass",
  "by the salt marsh",
  "on the river quay",
  "under the viaduct",
  "beside the tram depot",
  "at the edge of the forest",
  "in the copper town",
  "behind the old mill",
  "across the frozen lake",
  "inside the covered market",
  "on the windward island",
];
const DEEDS = [
  "counted the crates of cork",
  "repaired a cracked lantern",
  "wrote a letter to a cousin",
  "measured the spring floods",
  "traded maps for lamp oil",
  "taught two apprentices to splice rope",
  "sorted a drawer of brass keys",
  "planted rows of late pears",
  "mended the chapel roof",
  "logged the passing barges",
  "tuned a borrowed violin",
  "sketched the tide tables",
];
const TURNS = [
  "while the rain thinned to mist",
  "before the bells rang noon",
  "as gulls argued over the nets",
  "although the wind kept turning",
  "until the lamps were lit",
  "because the market had closed early",
  "after the postman left a parcel",
  "when the fog finally lifted",
  "though nobody had asked",
  "since the bridge was being painted",
  "as the evening train pulled out",
  "once the tea had gone cold",
];

/** The sentence i of the account: every combination differs, with a number to keep it unique. */
function sentence(i: number): string {
  const pick = <T>(xs: readonly T[], k: number) => xs[k % xs.length]!;
  return `${pick(PEOPLE, i)} ${pick(PLACES, Math.floor(i / 3) + i)} ${pick(DEEDS, Math.floor(i / 7) + 2 * i)} ${pick(TURNS, Math.floor(i / 11) + 5 * i)}, and noted ${17 + ((i * 37) % 900)} in the ledger.`;
}

/** About `tokens` prompt tokens (a word of plain prose is ~1.3 tokens); the usage counters report the real count. */
export function decodePrompt(tokens: number, answerWords: number): string {
  const ask = `Continue this account in your own words, adding new people and events, for at least ${answerWords} words.`;
  const budget = Math.max(8, Math.round(tokens / 1.3) - ask.split(" ").length - 4);
  const out: string[] = [];
  let words = 0;
  for (let i = 0; words < budget; i++) {
    const s = sentence(i);
    out.push(s);
    words += s.split(" ").length;
  }
  return `${out.join(" ")}\n\n${ask}`;
}

export function decodeRequest(model: string, depth: number, maxTokens: number): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: maxTokens,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: decodePrompt(depth, maxTokens) }],
  };
}
