import examples from "@octokit/webhooks-examples";
import { describe, expect, it } from "vitest";
import { installationChange, type InstallationPayload } from "../../src/installations/events.js";
import type { InstallationRecord } from "../../src/installations/types.js";

type Json = Record<string, any>;

/** A real payload from @octokit/webhooks-examples, copied so a test may change it. */
function example(event: "installation" | "installation_repositories", action: string): InstallationPayload & Json {
  const group = (examples as unknown as Array<{ name: string; examples: Json[] }>).find((g) => g.name === event);
  const found = group?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found) as InstallationPayload & Json;
}

const NOW = Date.UTC(2024, 4, 17, 12);

const stored = (o: Partial<InstallationRecord> & { id: number }): InstallationRecord => ({
  account: "Codertocat",
  state: "active",
  repositories: [],
  allRepositories: false,
  updatedAt: NOW - 86_400_000,
  ...o,
});

describe("installationChange: installation events", () => {
  it("records who installed it, on which account, and the selected repositories", () => {
    const payload = example("installation", "created");
    payload.sender.login = "hubot";
    payload.repositories!.push({ full_name: "Codertocat/Another" }, { full_name: "Codertocat/Hello-World" });
    const change = installationChange("installation", payload, undefined, NOW);
    expect(change).toEqual({
      record: {
        id: 957387,
        account: "Codertocat",
        installedBy: "hubot",
        state: "active",
        repositories: [{ fullName: "Codertocat/Another" }, { fullName: "Codertocat/Hello-World" }],
        allRepositories: false,
        updatedAt: NOW,
      },
      summary: "@hubot installed crewbot on Codertocat (installation 957387)",
    });
    expect(change).not.toHaveProperty("cancel");
  });

  it("records an installation on all repositories", () => {
    const payload = example("installation", "created");
    payload.installation.repository_selection = "all";
    const change = installationChange("installation", payload, undefined, NOW)!;
    expect(change.record).toMatchObject({ id: 957387, state: "active", installedBy: "Codertocat", allRepositories: true });
    expect(change.cancel).toBeUndefined();
  });

  it("makes a reinstall active again, with its new installer and repositories", () => {
    const payload = example("installation", "created");
    const before = stored({ id: 957387, state: "deleted", installedBy: "someone-else", repositories: [{ fullName: "Codertocat/Gone" }], allRepositories: true });
    const change = installationChange("installation", payload, before, NOW)!;
    expect(change.record).toEqual({
      id: 957387,
      account: "Codertocat",
      installedBy: "Codertocat",
      state: "active",
      repositories: [{ fullName: "Codertocat/Hello-World", id: 186853002 }],
      allRepositories: false,
      updatedAt: NOW,
    });
  });

  it("marks an uninstall deleted and cancels all of the installation's jobs, keeping what was known", () => {
    const payload = example("installation", "deleted");
    const before = stored({ id: 2, account: "octocat", installedBy: "octocat-admin", repositories: [{ fullName: "octocat/Hello-World" }, { fullName: "octocat/Spoon-Knife" }] });
    const change = installationChange("installation", payload, before, NOW);
    expect(change).toEqual({
      record: { ...before, state: "deleted", updatedAt: NOW },
      cancel: { all: true },
      summary: "@octocat uninstalled crewbot from octocat (installation 2)",
    });
  });

  it("records an uninstall of an installation it never saw", () => {
    const change = installationChange("installation", example("installation", "deleted"), undefined, NOW)!;
    expect(change.record).toMatchObject({ id: 2, account: "octocat", state: "deleted", updatedAt: NOW });
    expect(change.record.installedBy).toBeUndefined();
    expect(change.cancel).toEqual({ all: true });
  });

  it("suspends (cancelling all queued jobs) and unsuspends (cancelling nothing)", () => {
    const before = stored({ id: 16598467, installedBy: "Codertocat", allRepositories: true });
    const suspended = installationChange("installation", example("installation", "suspend"), before, NOW)!;
    expect(suspended).toEqual({
      record: { ...before, state: "suspended", updatedAt: NOW },
      cancel: { all: true },
      summary: "@Codertocat suspended installation 16598467",
    });

    const unsuspended = installationChange("installation", example("installation", "unsuspend"), suspended.record, NOW + 1)!;
    expect(unsuspended).toEqual({
      record: { ...before, state: "active", updatedAt: NOW + 1 },
      summary: "@Codertocat unsuspended installation 16598467",
    });
    expect(unsuspended).not.toHaveProperty("cancel");
  });

  it("changes nothing for new_permissions_accepted or an unknown action", () => {
    expect(installationChange("installation", example("installation", "new_permissions_accepted"), undefined, NOW)).toBeUndefined();
    const before = stored({ id: 957387 });
    expect(installationChange("installation", example("installation", "new_permissions_accepted"), before, NOW)).toBeUndefined();
    const other = example("installation", "created");
    other.action = "something_new";
    expect(installationChange("installation", other, before, NOW)).toBeUndefined();
  });

  it("takes the account from the event when it is known, and keeps the stored one when the event has none", () => {
    const renamed = example("installation", "suspend");
    renamed.installation.account!.login = "Codertocat-renamed";
    expect(installationChange("installation", renamed, stored({ id: 16598467 }), NOW)!.record.account).toBe("Codertocat-renamed");

    const noAccount = example("installation", "suspend");
    noAccount.installation.account = null;
    expect(installationChange("installation", noAccount, stored({ id: 16598467, account: "kept" }), NOW)!.record.account).toBe("kept");
    expect(installationChange("installation", noAccount, undefined, NOW)!.record.account).toBe("unknown");
  });
});

describe("installationChange: installation_repositories events", () => {
  it("adds repositories to an installation it never saw, cancelling nothing", () => {
    const change = installationChange("installation_repositories", example("installation_repositories", "added"), undefined, NOW);
    expect(change).toEqual({
      record: { id: 957387, account: "Codertocat", state: "active", repositories: [{ fullName: "Codertocat/Space", id: 186853007 }], allRepositories: false, updatedAt: NOW },
      summary: "@Codertocat changed the repositories of installation 957387: +1 −0",
    });
    expect(change).not.toHaveProperty("cancel");
  });

  it("merges added repositories into the stored record, once each, keeping who installed it", () => {
    const payload = example("installation_repositories", "added");
    payload.repositories_added!.push({ full_name: "Codertocat/Hello-World" }, { full_name: "Codertocat/Alpha" });
    const before = stored({ id: 957387, installedBy: "Codertocat", repositories: [{ fullName: "Codertocat/Hello-World" }] });
    const change = installationChange("installation_repositories", payload, before, NOW)!;
    expect(change.record).toEqual({
      ...before,
      repositories: [{ fullName: "Codertocat/Alpha" }, { fullName: "Codertocat/Hello-World" }, { fullName: "Codertocat/Space", id: 186853007 }],
      updatedAt: NOW,
    });
    expect(change.cancel).toBeUndefined();
    expect(change.summary).toBe("@Codertocat changed the repositories of installation 957387: +3 −0");
  });

  it("drops removed repositories and cancels only their jobs", () => {
    const payload = example("installation_repositories", "removed");
    const before = stored({ id: 2, account: "octocat", installedBy: "octocat", repositories: [{ fullName: "octocat/Hello-World" }, { fullName: "octocat/Spoon-Knife" }] });
    const change = installationChange("installation_repositories", payload, before, NOW);
    expect(change).toEqual({
      record: { ...before, repositories: [{ fullName: "octocat/Spoon-Knife" }], updatedAt: NOW },
      cancel: { repositories: ["octocat/Hello-World"] },
      summary: "@octocat changed the repositories of installation 2: +0 −1",
    });
  });

  it("adds and removes in one event", () => {
    const payload = example("installation_repositories", "removed");
    payload.repositories_added = [{ full_name: "octocat/New" }];
    payload.repositories_removed!.push({ full_name: "octocat/Never-Stored" });
    const before = stored({ id: 2, account: "octocat", repositories: [{ fullName: "octocat/Hello-World" }, { fullName: "octocat/Spoon-Knife" }] });
    const change = installationChange("installation_repositories", payload, before, NOW)!;
    expect(change.record.repositories).toEqual([{ fullName: "octocat/New" }, { fullName: "octocat/Spoon-Knife" }]);
    expect(change.cancel).toEqual({ repositories: ["octocat/Hello-World", "octocat/Never-Stored"] });
  });

  it("follows the repository selection of the event", () => {
    const toAll = example("installation_repositories", "added");
    toAll.repository_selection = "all";
    const before = stored({ id: 957387, allRepositories: false });
    expect(installationChange("installation_repositories", toAll, before, NOW)!.record.allRepositories).toBe(true);

    const toSelected = example("installation_repositories", "added");
    expect(installationChange("installation_repositories", toSelected, stored({ id: 957387, allRepositories: true }), NOW)!.record.allRepositories).toBe(false);

    // Without the top-level field, the installation's selection counts.
    const fromInstallation = example("installation_repositories", "added");
    delete fromInstallation.repository_selection;
    fromInstallation.installation.repository_selection = "all";
    expect(installationChange("installation_repositories", fromInstallation, before, NOW)!.record.allRepositories).toBe(true);
  });

  it("keeps a suspended installation suspended when its repositories change", () => {
    const before = stored({ id: 957387, state: "suspended" });
    expect(installationChange("installation_repositories", example("installation_repositories", "added"), before, NOW)!.record.state).toBe("suspended");
  });
});
