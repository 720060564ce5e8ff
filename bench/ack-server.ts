/** The app alone, for the webhook-acknowledgement bench: GitHub is nock, no worker runs. Prints its port. */
import nock from "nock";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { boot, mockGitHub } from "./app.js";

nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host));
const fake = await startFakeAnthropic([]);
mockGitHub([], { count: 0 });
const { started } = await boot(false, fake.url);
const address = started.server.port;
process.stdout.write(`${address}\n`);
process.once("SIGTERM", async () => {
  await started.stop();
  await fake.close();
  process.exit(0);
});
