/**
 * A git smart-HTTP server for tests: node:http on 127.0.0.1 running `git http-backend` as CGI,
 * behind the check GitHub makes — `Authorization: Basic base64(x-access-token:<token>)` or 401.
 * Every request is recorded, so tests can prove the header was sent and count fetches.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/owner/repo.git/info/refs?service=git-upload-pack`. */
  url: string;
  authorized: boolean;
  status: number;
  /** Protocol v2 command of an upload-pack POST (`ls-refs`, `fetch`), when there is one. */
  command?: string;
  /** Bytes of the response body: a fetch that sends a pack is large, "nothing new" is tiny. */
  responseBytes: number;
  /** When the request started and ended (ms since epoch), to see whether requests overlapped. */
  start: number;
  end: number;
}

export interface GitHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Clone URL of `<root>/<owner>/<repo>` (a normal or bare repository). */
  cloneUrl(owner: string, repo: string): string;
  requests: RecordedRequest[];
  /** Upload-pack POSTs that asked for objects (protocol v2 `command=fetch`). */
  fetches(): RecordedRequest[];
  close(): Promise<void>;
}

export interface GitHttpServerOptions {
  /** Directory holding `<owner>/<repo>.git` repositories. */
  root: string;
  /** The installation token every request must carry. */
  token: string;
  /**
   * Emulates a network link for benches (loopback has neither): each request waits `latencyMs`
   * before it is answered, and response bodies are paced to `bytesPerSecond`.
   */
  link?: { bytesPerSecond: number; latencyMs: number };
  /** Accept pushes (`http.receivepack=true` for every served repository); off by default, as git's own default. */
  receivePack?: boolean;
}

export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`x-access-token:${options.token}`).toString("base64")}`;
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    if (options.link) setTimeout(() => handle(req, res), options.link.latencyMs);
    else handle(req, res);
  });

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const start = Date.now();
    const target = new URL(req.url ?? "/", "http://x");
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      authorized: req.headers.authorization === expected,
      status: 0,
      responseBytes: 0,
      start,
      end: start,
    };
    requests.push(record);
    const finish = (status: number) => {
      record.status = status;
      record.end = Date.now();
    };
    if (!record.authorized) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="test"', "Content-Type": "text/plain" });
      res.end("authentication required\n");
      finish(401);
      return;
    }

    const child = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH,
        HOME: options.root,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: decodeURIComponent(target.pathname),
        QUERY_STRING: target.search.slice(1),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_ADDR: "127.0.0.1",
        REMOTE_USER: "x-access-token",
        ...(options.receivePack
          ? { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.receivepack", GIT_CONFIG_VALUE_0: "true" }
          : {}),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });

    // Keep the request body to read the v2 command from it; stream it into the CGI as it comes.
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.length < 4 && body.push(chunk));
    req.on("end", () => (record.command = commandOf(body, req.headers["content-encoding"])));
    req.pipe(child.stdin);
    child.stdin.on("error", () => undefined);

    let header = Buffer.alloc(0);
    let headersSent = false;
    // Paced writes, in order through one promise chain; stdout is paused while chunks wait.
    let linkFreeAt = Date.now();
    let queue = Promise.resolve();
    let waiting = 0;
    const send = (chunk: Buffer) => {
      record.responseBytes += chunk.length;
      const link = options.link;
      if (!link) {
        res.write(chunk);
        return;
      }
      linkFreeAt = Math.max(linkFreeAt, Date.now()) + (chunk.length / link.bytesPerSecond) * 1000;
      const due = linkFreeAt;
      waiting += 1;
      if (waiting > 4) child.stdout.pause();
      queue = queue
        .then(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))))
        .then(() => {
          res.write(chunk);
          waiting -= 1;
          if (waiting <= 4) child.stdout.resume();
        });
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (headersSent) {
        send(chunk);
        return;
      }
      header = Buffer.concat([header, chunk]);
      const sep = header.indexOf("\r\n\r\n");
      const sepLf = header.indexOf("\n\n");
      const at = sep >= 0 ? sep : sepLf;
      if (at < 0) return;
      const headerText = header.subarray(0, at).toString("latin1");
      const rest = header.subarray(at + (sep >= 0 ? 4 : 2));
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of headerText.split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      record.status = status;
      headersSent = true;
      send(rest);
    });
    child.stderr.resume();
    // After the last paced write.
    child.stdout.on("end", () => {
      void queue.then(() => {
        if (!headersSent) res.writeHead(500);
        res.end();
        finish(headersSent ? record.status : 500);
      });
    });
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    cloneUrl: (owner, repo) => `${url}/${owner}/${repo}.git`,
    requests,
    fetches: () => requests.filter((r) => r.method === "POST" && r.command === "fetch"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `0012command=fetch\n…` → `fetch`; request bodies may be gzipped by the git client. */
function commandOf(chunks: Buffer[], encoding: string | undefined): string | undefined {
  let body = Buffer.concat(chunks);
  if (encoding === "gzip") {
    try {
      body = gunzipSync(body, { finishFlush: 2 });
    } catch {
      return undefined;
    }
  }
  return /command=([a-z-]+)/.exec(body.subarray(0, 200).toString("latin1"))?.[1];
}
