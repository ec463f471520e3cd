// The action's known-hosts input on a fleet: it pins only the hosts its lines name (issue 27: one host's
// line used to replace every host's pin, so an impostor at another host's address was trusted).
import { describe, expect, it } from "vitest";
import { withInputPin } from "../../../src/commands/rollout/host-step.js";

const KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBt8ixm/bpWHFrji7bOcV46kLYeFYRJp+vre34weobS";
const CONFIG_PIN = "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8";
const ep = (address: string) => ({ host: { address, port: 22, user: "u", hostKey: CONFIG_PIN } });

describe("withInputPin", () => {
  it("replaces the pin of a host the input names", () => {
    const out = withInputPin(ep("gpu1.lan"), `gpu1.lan ${KEY_A}`);
    expect(out.host).toMatchObject({ knownHosts: `gpu1.lan ${KEY_A}`, hostKey: undefined });
  });

  it("keeps the config's pin for a host the input does not name", () => {
    expect(withInputPin(ep("gpu2.lan"), `gpu1.lan ${KEY_A}`)).toEqual(ep("gpu2.lan"));
    expect(withInputPin(ep("gpu2.lan"), `*.lan,!gpu2.lan ${KEY_A}`)).toEqual(ep("gpu2.lan"));
  });

  it("leaves an endpoint alone when there is no input", () => {
    expect(withInputPin(ep("gpu1.lan"), undefined)).toEqual(ep("gpu1.lan"));
  });
});
