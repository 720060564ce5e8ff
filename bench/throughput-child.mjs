// One crewbot process for the throughput bench (bench/throughput.ts), compiled (`npm run build`), as
// `npm start` and `npm run worker` run it. GitHub is nock inside this process (nock only sees its own
// process's requests), answering at once for any installation. Settings come from the environment:
//   BENCH_ROLE=app     the webhook server (`start()`, worker not started yet); with REDIS_URL it only enqueues
//   BENCH_ROLE=worker  `startWorker()` (Redis), started on "go"
//   BENCH_HOSTNAME     os.hostname() for this process (the runner's worker id is `embedded:<hostname>`)
// Protocol, one JSON line each way: it prints {"ready":true,"port":…}; "go\n" on stdin starts the
// worker (it prints {"going":true}); "stop\n" stops it gracefully and prints {"stopped":true,"writes":…,"log":[…]}:
// every POST/PATCH/PUT/DELETE to GitHub but the installation tokens, as {t (epoch ms), method, path, id?}.
import os from "node:os";
import { syncBuiltinESMExports } from "node:module";
import readline from "node:readline";
import nock from "nock";
import { ProbotOctokit } from "probot";

// Before the app is loaded: two worker processes on one host would otherwise share one worker id.
if (process.env.BENCH_HOSTNAME) {
  const name = process.env.BENCH_HOSTNAME;
  os.hostname = () => name;
  syncBuiltinESMExports();
}

const { start } = await import("../dist/main.js");
const { startWorker } = await import("../dist/worker.js");

const API = "https://api.github.com";
let writes = 0;
let commentId = Number(process.env.BENCH_COMMENT_BASE) || 1000; // apart per process: one installation's comments are shared
const log = [];
/** Counts and timestamps one write; `id`: the comment it created. */
function wrote(method, path, id) {
  writes += 1;
  log.push({ t: Date.now(), method, path, ...(id === undefined ? {} : { id }) });
}
nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host));
nock(API)
  .persist()
  .post(/\/app\/installations\/\d+\/access_tokens$/) // one installation per job: any id
  .reply(201, () => ({ token: process.env.BENCH_TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString() }))
  .get(/\/collaborators\/.+\/permission$/)
  .reply(200, { permission: "admin", role_name: "admin" })
  .get(/\/issues\/\d+\/comments/)
  .query(true)
  .reply(200, [])
  .get(/\/contents\/\.github%2Fcrewbot\.yml$/) // no config anywhere: the defaults
  .reply(404, { message: "Not Found" })
  .get("/app")
  .reply(200, { id: 1, slug: "crewbot", name: "crewbot" })
  .get(/^\/users\/[^/]+%5Bbot%5D$/)
  .reply(200, { id: 41898282, type: "Bot" })
  .post(/\/reactions$/)
  .reply(201, (path) => (wrote("POST", path), {}))
  .post(/\/issues\/\d+\/comments$/)
  .reply(201, (path) => (wrote("POST", path, ++commentId), { id: commentId }))
  .patch(/\/issues\/comments\/\d+$/)
  .reply(200, (path) => (wrote("PATCH", path), {}))
  .put(/.*/)
  .reply(200, (path) => (wrote("PUT", path), {}))
  .delete(/.*/)
  .reply(204, (path) => (wrote("DELETE", path), ""));

const Octokit = ProbotOctokit.defaults((o) => ({ ...o, retry: { enabled: false }, throttle: { enabled: false } }));
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

let stop = async () => {};
let go = async () => {};
if (process.env.BENCH_ROLE === "app") {
  const started = await start({ env: process.env, Octokit, worker: false });
  let running = false;
  stop = async () => {
    if (running) await started.crewbot.runner.stop({ drain: true, timeoutMs: 60_000 });
    await started.stop();
  };
  send({ ready: true, port: started.server.port });
  go = async () => {
    running = true;
    await started.crewbot.runner.start(); // the embedded worker, as `npm start` runs it
  };
} else {
  let worker;
  stop = async () => void (await worker?.stop());
  send({ ready: true });
  go = async () => {
    worker = await startWorker({ env: process.env, Octokit });
  };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", async (line) => {
  if (line === "go") {
    await go();
    send({ going: true });
  } else if (line === "stop") {
    await stop();
    send({ stopped: true, writes, log });
    process.exit(0);
  }
});
lines.on("close", () => process.exit(1)); // the bench went away
