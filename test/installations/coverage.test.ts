import examples from "@octokit/webhooks-examples";
import { describe, expect, it } from "vitest";
import { coverageRefusal } from "../../src/installations/coverage.js";
import { installationChange, type InstallationPayload } from "../../src/installations/events.js";
import { SqliteInstallations } from "../../src/store/sqlite/installations.js";
import type { InstallationRecord, RepositoryRef } from "../../src/installations/types.js";
import { tempDir } from "../helpers/git-repo.js";

const NOT_COVERED = "the repository is not (or no longer) among the installation's repositories";

const record = (o: Partial<InstallationRecord>): InstallationRecord => ({
  id: 1,
  account: "octo",
  state: "active",
  repositories: [],
  allRepositories: false,
  updatedAt: 1,
  ...o,
});
/** crewbot saw the installation made: its list of repositories is complete. */
const complete = (repositories: RepositoryRef[]) => record({ installedBy: "octo-admin", repositories });
/** Made before crewbot kept records: only removals are known. */
const partial = (removedRepositories: RepositoryRef[]) => record({ removedRepositories });

describe("coverageRefusal: by repository id", () => {
  it.each<[string, InstallationRecord, RepositoryRef, string | undefined]>([
    ["a selected repository", complete([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/app", id: 5 }, undefined],
    ["one renamed since it was selected (same id, new name)", complete([{ fullName: "octo/old-name", id: 5 }]), { fullName: "octo/new-name", id: 5 }, undefined],
    ["one transferred to another owner (same id)", complete([{ fullName: "octo/app", id: 5 }]), { fullName: "other-org/app", id: 5 }, undefined],
    ["a new repository that took a selected one's old name", complete([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/app", id: 9 }, NOT_COVERED],
    ["a repository never selected", complete([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/other", id: 6 }, NOT_COVERED],
    ["an entry recorded without an id, by name in any case", complete([{ fullName: "octo/App" }]), { fullName: "OCTO/app", id: 5 }, undefined],
    ["an entry recorded without an id, another name", complete([{ fullName: "octo/app" }]), { fullName: "octo/renamed", id: 5 }, NOT_COVERED],
    ["a payload without an id, by name", complete([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/app" }, undefined],
    ["a removed repository renamed afterwards (partial record)", partial([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/renamed", id: 5 }, NOT_COVERED],
    ["a new repository with a removed one's name (partial record)", partial([{ fullName: "octo/app", id: 5 }]), { fullName: "octo/app", id: 9 }, undefined],
    ["any repository of an installation on all repositories", record({ installedBy: "x", allRepositories: true }), { fullName: "octo/x", id: 1 }, undefined],
    ["a suspended installation", record({ state: "suspended", allRepositories: true }), { fullName: "octo/x", id: 1 }, "the installation is suspended"],
  ])("%s", (_what, stored, repository, refusal) => {
    expect(coverageRefusal(stored, repository)).toBe(refusal);
  });

  it("keeps covering a selected repository after its rename, from the installation event through the store", async () => {
    const group = (examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>).find((g) => g.name === "installation")!;
    const created = structuredClone(group.examples.find((e) => e.action === "created")) as unknown as InstallationPayload;
    const [selected] = created.repositories!;
    expect(selected).toMatchObject({ id: expect.any(Number), full_name: "Codertocat/Hello-World" });
    const store = new SqliteInstallations({ dataDir: await tempDir("crewbot-coverage-") });
    try {
      await store.put(installationChange("installation", created, undefined)!.record);
      const stored = await store.get(created.installation.id);
      // Renamed on GitHub: a comment's payload names the repository by its new name, with the same id.
      expect(coverageRefusal(stored, { fullName: "Codertocat/Hello-Universe", id: selected!.id })).toBeUndefined();
      expect(coverageRefusal(stored, { fullName: "Codertocat/Hello-World", id: selected!.id! + 1 })).toBe(NOT_COVERED);
    } finally {
      await store.close();
    }
  });
});
