/**
 * What the comparison needs of the registry beyond npm's abbreviated document — who published a
 * version and its maintainers (`_npmUser`, `maintainers`), when it was published (`time`) — got
 * the cheapest correct way: from the abbreviated document itself when the registry put it there;
 * people from the version's own manifest (`<registry>/<name>/<version>`, a few KB); the full
 * document (up to 100 MB) only when the abbreviated one's `modified` is inside the fresh-release
 * window (no version can be fresh otherwise), or when the registry refuses a version's manifest.
 * The full document is cut to the versions this review compares as soon as it is read.
 */
import { FRESH_HOURS, versionMeta, type VersionMeta } from "./compare.js";
import { RegistryError, type RegistryClient } from "./registry.js";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const pick = (record: unknown, keys: Iterable<string>) => (isRecord(record) ? Object.fromEntries([...keys].filter((k) => k in record).map((k) => [k, record[k]])) : {});

/** A registry that answers a version's manifest with a 4xx does not serve that endpoint (npm itself never uses it). */
const refused = (error: unknown) => error instanceof RegistryError && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;

export class PackageMeta {
  private full?: Promise<Record<string, unknown>>;
  private readonly manifests = new Map<string, Promise<Record<string, unknown> | undefined>>();

  constructor(
    private readonly client: RegistryClient,
    private readonly name: string,
    /** The abbreviated document (or whatever the registry answered to npm's Accept). */
    private readonly document: Record<string, unknown>,
    /** The versions this review compares: all the full document is cut to. */
    private readonly needed: ReadonlySet<string>,
    private readonly now: number,
  ) {}

  /** What the registry says of `version`; `people`: its publisher and maintainers are needed too. */
  async of(version: string, people: boolean): Promise<VersionMeta | undefined> {
    const entry = isRecord(this.document["versions"]) && isRecord(this.document["versions"][version]) ? this.document["versions"][version] : {};
    const time = isRecord(this.document["time"]) ? this.document["time"] : undefined;
    if (this.full || (!time && this.mayBeFresh())) return versionMeta(await this.fullDocument(), version);
    let own: Record<string, unknown> = entry;
    if (people && !("_npmUser" in entry) && !("maintainers" in entry)) {
      const manifest = await this.manifest(version);
      if (!manifest) return versionMeta(await this.fullDocument(), version);
      own = { ...entry, ...manifest };
    }
    return versionMeta({ versions: { [version]: own }, ...(time ? { time: pick(time, [version]) } : {}) }, version);
  }

  /** A version may have been published inside the window when the document changed inside it (or does not say when). */
  private mayBeFresh(): boolean {
    const modified = typeof this.document["modified"] === "string" ? Date.parse(this.document["modified"]) : NaN;
    return !Number.isFinite(modified) || this.now - modified < FRESH_HOURS * 3_600_000;
  }

  private manifest(version: string): Promise<Record<string, unknown> | undefined> {
    let manifest = this.manifests.get(version);
    if (!manifest) {
      manifest = this.client.manifest(this.name, version).then(
        (value) => (isRecord(value) ? value : undefined),
        (error: unknown) => {
          if (refused(error)) return undefined;
          throw error;
        },
      );
      this.manifests.set(version, manifest);
    }
    return manifest;
  }

  private fullDocument(): Promise<Record<string, unknown>> {
    this.full ??= this.client.document(this.name).then((document) => (isRecord(document) ? { versions: pick(document["versions"], this.needed), time: pick(document["time"], this.needed) } : {}));
    return this.full;
  }
}
