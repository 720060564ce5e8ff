import nock from "nock";
import { describe, expect, it } from "vitest";
import { botIdentityResolver } from "../../src/github/bot-identity.js";
import type { InstallationOctokit } from "../../src/github/types.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";
import { API, TOKEN, useNock } from "../helpers/github.js";

useNock();

const octokit = () => new TestOctokit({ auth: TOKEN }) as unknown as InstallationOctokit;
const slug = () => Promise.resolve("my-app");

describe("botIdentityResolver", () => {
  it("asks GitHub for the bot user once and uses its id in the noreply address", async () => {
    nock(API).get("/users/my-app%5Bbot%5D").once().reply(200, { login: "my-app[bot]", id: 123456, type: "Bot" });
    const resolve = botIdentityResolver({}, slug);
    const expected = { name: "my-app[bot]", email: "123456+my-app[bot]@users.noreply.github.com" };
    expect(await resolve(octokit())).toEqual(expected);
    expect(await resolve(octokit())).toEqual(expected); // remembered: no second request
  });

  it("falls back to the address without id when the lookup fails, and asks again next time", async () => {
    nock(API).get("/users/my-app%5Bbot%5D").reply(404, {}).get("/users/my-app%5Bbot%5D").reply(200, { id: 7 });
    const resolve = botIdentityResolver({}, slug);
    expect(await resolve(octokit())).toEqual({ name: "my-app[bot]", email: "my-app[bot]@users.noreply.github.com" });
    expect(await resolve(octokit())).toEqual({ name: "my-app[bot]", email: "7+my-app[bot]@users.noreply.github.com" });
  });

  it("takes the operator's name and address without asking", async () => {
    const resolve = botIdentityResolver({ CREWBOT_BOT_NAME: "Crew Bot", CREWBOT_BOT_EMAIL: "bot@example.com" }, slug);
    expect(await resolve(octokit())).toEqual({ name: "Crew Bot", email: "bot@example.com" });
  });
});
