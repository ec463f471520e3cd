// Distinct planted secrets, one per place a secret can hide, and the text forms the host prints them in.
// Shared by the unit test of the sanitize pass and the e2e planted-secrets test: each value is unique,
// so a single grep over every output finds any leak and names where it came from.
export const PLANTED = {
  hfToken: "hf_PlantedHfTokenAbCdEfGhIjKlMn0123",
  apiKey: "sk-planted-api-key-9f8e7d6c5b4a",
  dbPassword: "PlantedDbPassw0rd!x",
  urlPassword: "PlantedUrlPw42",
  basicAuth: "cGxhbnRlZDpiYXNpY2F1dGg0Mg==",
  xApiKey: "PlantedXApiKeyValue77",
  customToken: "PlantedCustomTokenValue55",
  customSecret: "PlantedCustomSecretValue66",
  knobValue: "AKIAPLANTEDKNOB12345",
  // issue 27: the forms the redactor let through
  emptyUserUrlPw: "PlantedEmptyUserPw31",
  atUrlPw: "Planted@UrlPwAt58",
  listArgKey: "PlantedListArgKey64",
  spacedKey: "PlantedSpacedKey73",
  tabKey: "PlantedTabKey82",
  passphrase: "PlantedPassphrase91",
} as const;

/** Lines as a set -x trace, a unit, a journal or a response body would print them. */
export function plantedLines(p: typeof PLANTED = PLANTED): string[] {
  return [
    `+ podman run -e HF_TOKEN=${p.hfToken} vllm/vllm-openai --api-key ${p.apiKey}`,
    `DB_PASSWORD=${p.dbPassword} MY_APP_TOKEN="${p.customToken}" SERVICE_SECRET='${p.customSecret}'`,
    `connecting to postgres://vllm:${p.urlPassword}@db.internal:5432/metrics`,
    `Authorization: Basic ${p.basicAuth}`,
    `X-Api-Key: ${p.xApiKey}`,
    `{"error": "bad key", "api_key": "${p.apiKey}", "detail": "HF_TOKEN=${p.hfToken}"}`,
    `non-default args: {'api_key': '${p.apiKey}', 'hf_token': '${p.hfToken}'}`,
    `Authorization: Bearer ${p.apiKey}`,
    `VLLM_S3_ACCESS=${p.knobValue}`,
    `cache at redis://:${p.emptyUserUrlPw}@cache:6379/0`,
    `connecting to postgres://app:${p.atUrlPw}@db.internal/serve`,
    `subprocess.CalledProcessError: Command '['vllm', 'serve', '/m', '--api-key', '${p.listArgKey}']' returned non-zero exit status 1.`,
    `+ exec vllm serve /m --api-key    ${p.spacedKey} --port 8000`,
    `+ exec vllm serve /m --api-key\t${p.tabKey}`,
    `Environment=DEPLOY_GATE_SSH_PASSPHRASE=${p.passphrase}`,
  ];
}

export const plantedValues = (p: typeof PLANTED = PLANTED): string[] => Object.values(p);

/** Every planted value (and its distinctive core) found in text, for a failure message that names the leak. */
export function leaks(text: string, p: typeof PLANTED = PLANTED): string[] {
  return plantedValues(p).filter((v) => text.includes(v) || text.includes(v.slice(3, -3)));
}
