/**
 * The app's figures in the order `npm run bench` prints them: webhook latency and the jobs' writes
 * (bench/app.ts), an automatic review (bench/review.ts) and a PR summary (bench/summary.ts).
 */
import nock from "nock";
import { ackLatency, implementJob, planJob } from "./app.js";
import { selected } from "./only.js";
import { reviewBench } from "./review.js";
import { summaryBench } from "./summary.js";

export async function benchApp(): Promise<string[]> {
  nock.disableNetConnect();
  nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host));
  try {
    const lines: string[] = [];
    if (selected("ack")) lines.push(await ackLatency());
    if (selected("plan")) lines.push(...(await planJob()));
    if (selected("implement")) lines.push(await implementJob());
    if (selected("review")) lines.push(await reviewBench());
    if (selected("summary")) lines.push(await summaryBench());
    return lines;
  } finally {
    nock.cleanAll();
    nock.enableNetConnect();
  }
}
