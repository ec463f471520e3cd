// An in-process SSH peer acting as a jump host: each direct-tcpip channel piped to its destination.
import { connect as tcpConnect } from "node:net";
import type { Connection } from "ssh2";

export function forwardTcpip(client: Connection): void {
  client.on("ready", () => {
    client.on("tcpip", (accept, _reject, info) => {
      const ch = accept();
      const s = tcpConnect(info.destPort, info.destIP);
      s.on("error", () => ch.close());
      ch.pipe(s).pipe(ch);
    });
  });
}
