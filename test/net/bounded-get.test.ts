import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedGet, NetError, readCapped } from "../../src/net/bounded-get.js";

/** Two local hosts: `home` (the origin a token belongs to) and `elsewhere`; each path says what it answers. */
function server(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>) {
  const seen: Array<{ path: string; authorization?: string }> = [];
  const s = http.createServer((req, res) => {
    seen.push({ path: req.url!, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    (routes[req.url!] ?? ((_, r) => r.writeHead(404).end()))(req, res);
  });
  return { s, seen, url: () => `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
}

const elsewhere = server({ "/stolen": (_, res) => res.end("elsewhere") });
const home = server({
  "/ok": (_, res) => res.end("hello"),
  "/hop": (_, res) => res.writeHead(302, { location: "/ok" }).end(),
  "/loop": (_, res) => res.writeHead(302, { location: "/loop" }).end(),
  "/away": (_, res) => res.writeHead(302, { location: `${elsewhere.url()}/stolen` }).end(),
  "/slow": () => undefined,
  "/trickle": (_, res) => res.writeHead(200, { "content-type": "text/plain" }).write("first bytes, then nothing"),
  "/big": (_, res) => res.end(Buffer.alloc(3 * 1024 * 1024)),
});

beforeAll(async () => {
  await Promise.all([home.s, elsewhere.s].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
});
afterAll(() => {
  for (const s of [home.s, elsewhere.s]) s.closeAllConnections(), s.close();
});

const onHome = (max = 3) => ({ timeoutMs: 2_000, token: "t0ken", redirects: { origin: home.url(), max } });
const reason = (p: Promise<unknown>) => p.then(() => "answered", (e: unknown) => (e instanceof NetError ? e.reason : String(e)));

describe("boundedGet", () => {
  it("follows a redirect within the origin, sending the token there", async () => {
    const response = await boundedGet(`${home.url()}/hop`, onHome());
    expect((await readCapped(response, 1024)).toString()).toBe("hello");
    expect(home.seen.filter((s) => s.path === "/ok").at(-1)?.authorization).toBe("Bearer t0ken");
  });

  it("refuses a redirect to another host, and an address off the origin, before any request there", async () => {
    expect(await reason(boundedGet(`${home.url()}/away`, onHome()))).toBe("other-host");
    expect(await reason(boundedGet(`${elsewhere.url()}/stolen`, onHome()))).toBe("other-host");
    expect(elsewhere.seen).toEqual([]);
  });

  it("stops after its redirects, at its time limit, and on a status that is not 2xx", async () => {
    expect(await reason(boundedGet(`${home.url()}/loop`, onHome(2)))).toBe("redirects");
    expect(await reason(boundedGet(`${home.url()}/slow`, { ...onHome(), timeoutMs: 200 }))).toBe("timeout");
    expect(await reason(boundedGet(`${home.url()}/missing`, onHome()))).toBe("status");
  });

  it("with any host allowed, the platform follows the redirect and no token is sent", async () => {
    const response = await boundedGet(`${home.url()}/away`, { timeoutMs: 2_000, redirects: "any" });
    expect(await response.text()).toBe("elsewhere");
    expect(elsewhere.seen.at(-1)).toEqual({ path: "/stolen" });
  });

  it("a body that stops streaming past the time limit is a timeout too, never an unnamed abort", async () => {
    const response = await boundedGet(`${home.url()}/trickle`, { ...onHome(), timeoutMs: 300 });
    expect(await reason(readCapped(response, 1024))).toBe("timeout");
  });

  it("reads a body under its cap only", async () => {
    expect(await reason(boundedGet(`${home.url()}/big`, onHome()).then((r) => readCapped(r, 1024 * 1024)))).toBe("too-large");
  });
});
