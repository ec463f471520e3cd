// Key pairs for tests' in-process SSH peers. ssh2's generateKeyPairSync("ed25519") strips leading zero
// bytes of the public key, so about 1 pair in 256 comes out unreadable by its own parseKey (ssh2 issues
// #1390, #1513): a test using such a pair fails at random. Pairs are drawn until both halves parse.
import ssh2 from "ssh2";

type Options = Parameters<typeof ssh2.utils.generateKeyPairSync>[1];

export function ed25519Pair(opts?: Options): { private: string; public: string } {
  for (let i = 0; i < 100; i++) {
    const pair = opts ? ssh2.utils.generateKeyPairSync("ed25519", opts) : ssh2.utils.generateKeyPairSync("ed25519");
    const passphrase = (opts as { passphrase?: string } | undefined)?.passphrase;
    if (
      !(ssh2.utils.parseKey(pair.public) instanceof Error) &&
      !(ssh2.utils.parseKey(pair.private, passphrase) instanceof Error)
    ) {
      return pair;
    }
  }
  throw new Error("ssh2 made 100 unreadable ed25519 pairs in a row: its key generator is broken");
}
