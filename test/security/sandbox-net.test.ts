/**
 * Sandbox surface: the network when it is off. Listeners run in this (host) process on
 * 127.0.0.1; the check is on their side: no connection, no datagram ever arrives.
 */
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_VIAS, makeHost, sandbox, skipNote, type Host } from "./sandbox-harness.js";

describe.skipIf(!sandbox.available)(`sandbox attacks: network off${skipNote}`, () => {
  let host: Host;
  let tcp: Server;
  let udp: Socket;
  let tcpPort = 0;
  let udpPort = 0;
  let connections = 0;
  let datagrams = 0;
  beforeAll(async () => {
    host = await makeHost();
    tcp = createServer((sock) => {
      connections++;
      sock.end("hello-from-host\n");
    });
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    tcpPort = (tcp.address() as { port: number }).port;
    udp = createSocket("udp4");
    udp.on("message", () => datagrams++);
    await new Promise<void>((r) => udp.bind(0, "127.0.0.1", r));
    udpPort = udp.address().port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => tcp.close(() => r()));
    udp.close();
    await host.cleanup();
  });

  describe.each(ALL_VIAS)("%s", (via) => {
    it("cannot connect to a TCP server on the host's 127.0.0.1 (the server sees nothing)", async () => {
      const before = connections;
      const r = await host.attack(
        via,
        `timeout 5 bash -c 'cat < /dev/tcp/127.0.0.1/${tcpPort}'; timeout 5 curl -s http://127.0.0.1:${tcpPort}/ ; ` +
          `ip -o addr 2>/dev/null || cat /proc/net/dev`,
      );
      expect(r.output).toMatch(/Network is unreachable|Connection refused/);
      expect(r.output).not.toContain("hello-from-host");
      expect(r.output).not.toMatch(/eth\d|ens\d|enp\d/); // no interface but lo
      expect(connections).toBe(before);
    });

    it("cannot send UDP to the host (a DNS-style query to a local resolver arrives nowhere)", async () => {
      const before = datagrams;
      await host.attack(via, `echo query > /dev/udp/127.0.0.1/${udpPort}; echo q > /dev/udp/127.0.0.53/53; true`);
      await new Promise((r) => setTimeout(r, 300));
      expect(datagrams).toBe(before);
    });

    it("cannot resolve names (DNS)", async () => {
      const r = await host.attack(via, "getent hosts github.com; getent ahosts api.anthropic.com; echo rc=$?");
      expect(r.output).toContain("rc=2");
      expect(r.output).not.toMatch(/\d+\.\d+\.\d+\.\d+\s+\S*github/);
    });
  });
});
