// The app alone, compiled (`npm run build`), as `npm start` runs it — for the webhook-acknowledgement
// bench. GitHub is nock, answering at once; no worker runs. Reads its settings from the environment
// the bench passes and prints its port.
import nock from "nock";
import { ProbotOctokit } from "probot";
import { start } from "../dist/main.js";

const API = "https://api.github.com";
nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host));
nock(API)
  .persist()
  .post(/\/app\/installations\/\d+\/access_tokens$/)
  .reply(201, () => ({ token: process.env.BENCH_TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString() }))
  .get(/\/collaborators\/.+\/permission$/)
  .reply(200, { permission: "admin", role_name: "admin" });

const Octokit = ProbotOctokit.defaults((o) => ({ ...o, retry: { enabled: false }, throttle: { enabled: false } }));
const started = await start({ env: process.env, Octokit, worker: false });
process.stdout.write(`${started.server.port}\n`);
process.once("SIGTERM", async () => {
  await started.stop();
  process.exit(0);
});
