import nock from "nock";
import { describe, expect, it } from "vitest";
import { botIdentityResolver } from "../../src/github/bot-identity.js";
import { githubOctokit, noreplyDomain } from "../../src/github/octokit.js";
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

  it("uses the Enterprise host's noreply domain under GHE_HOST", async () => {
    nock("https://ghe.example.test").get("/api/v3/users/my-app%5Bbot%5D").reply(200, { login: "my-app[bot]", id: 55, type: "Bot" });
    const env = { GHE_HOST: "GHE.example.test" };
    const ghe = new (githubOctokit(env, TestOctokit))({ auth: TOKEN }) as unknown as InstallationOctokit;
    expect(await botIdentityResolver(env, slug)(ghe)).toEqual({ name: "my-app[bot]", email: "55+my-app[bot]@users.noreply.ghe.example.test" });
    expect(noreplyDomain({ GHE_HOST: "ghe.corp:8443" })).toBe("users.noreply.ghe.corp");
    expect(noreplyDomain({})).toBe("users.noreply.github.com");
  });

  it("takes the operator's name and address without asking", async () => {
    const resolve = botIdentityResolver({ CREWBOT_BOT_NAME: "Crew Bot", CREWBOT_BOT_EMAIL: "bot@example.com" }, slug);
    expect(await resolve(octokit())).toEqual({ name: "Crew Bot", email: "bot@example.com" });
  });
});
