/** The start-up check of configured models against the endpoint's `GET /v1/models`. */
import { afterEach, describe, expect, it } from "vitest";
import { checkConfiguredModels, isListed, listModels } from "../../src/agent/model-list.js";
import { fakeClient, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const recorder = () => {
  const lines: Array<[string, string]> = [];
  return { lines, info: (m: string) => lines.push(["info", m]), warn: (m: string) => lines.push(["warn", m]) };
};

describe("isListed", () => {
  const ids = ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "my-proxy-model"];
  it.each([
    ["claude-sonnet-4-5-20250929", true],
    ["claude-sonnet-4-5", true], // the alias of a listed snapshot
    ["Claude-Haiku-4-5", true],
    ["my-proxy-model", true],
    ["claude-sonet-4-5", false],
    ["claude-opus-4-5", false],
  ])("%s → %s", (model, expected) => expect(isListed(model, ids)).toBe(expected));
});

describe("checkConfiguredModels", () => {
  it("reads every page and logs an unknown model once by name, however often it is checked", async () => {
    const models = Array.from({ length: 25 }, (_, i) => `claude-model-${i}`);
    fake = await startFakeAnthropic([], { models: [...models, "claude-sonnet-5-5"] });
    const client = fakeClient(fake.url);
    const log = recorder();

    expect((await listModels(client)) as { ids: string[] }).toEqual({ ids: [...models, "claude-sonnet-5-5"] });
    const unknown = await checkConfiguredModels(client, ["claude-sonnet-5-5", "claude-typo-1", "claude-typo-1", "claude-model-24"], log);
    await checkConfiguredModels(client, ["claude-typo-1"], log);

    expect(unknown).toEqual(["claude-typo-1"]);
    expect(log.lines).toEqual([["warn", 'model "claude-typo-1" is configured but the model endpoint does not list it; jobs using it will fail']]);
    // Paginated as the API does: a page of up to 1000, so one request per check here; the second page's cursor is honoured.
    expect(fake.listRequests.every((url) => url.startsWith("/v1/models?limit=1000"))).toBe(true);
  });

  it("follows has_more across pages", async () => {
    const models = Array.from({ length: 2500 }, (_, i) => `m-${i}`);
    fake = await startFakeAnthropic([], { models });
    const listed = await listModels(fakeClient(fake.url));
    expect("ids" in listed && listed.ids.length).toBe(2500);
    expect(fake.listRequests).toHaveLength(3);
    expect(fake.listRequests[1]).toContain("after_id=m-999");
  });

  it("is fine with an endpoint that has no model list", async () => {
    fake = await startFakeAnthropic([]); // GET /v1/models → 404
    const log = recorder();
    expect(await checkConfiguredModels(fakeClient(fake.url), ["anything"], log)).toEqual([]);
    expect(log.lines).toEqual([["info", expect.stringMatching(/^the model endpoint gave no model list \(404 .*\); configured models not checked$/)]]);
  });

  it("is fine with an endpoint that is down", async () => {
    const log = recorder();
    expect(await checkConfiguredModels(fakeClient("http://127.0.0.1:9"), ["anything"], log)).toEqual([]);
    expect(log.lines[0]![0]).toBe("info");
  });
});
