import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach } from "vitest";
import { startGitHttpServer, type GitHttpServer } from "../helpers/git-http-server.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

/** Installation-token shaped, so a leak would also be caught by the report redactor's patterns. */
export const TOKEN = `ghs_${randomBytes(18).toString("hex")}`;

export interface Served {
  server: GitHttpServer;
  /** A source repository `<root>/<owner>/<repo>.git` (with a working tree) and its clone URL. */
  repo(owner: string, name: string, files: Record<string, string>): Promise<{ dir: string; cloneUrl: string }>;
  dataDir: string;
}

const servers: GitHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

export async function serve(token = TOKEN, options: { receivePack?: boolean } = {}): Promise<Served> {
  const root = await tempDir("crewbot-served-");
  const server = await startGitHttpServer({ root, token, receivePack: options.receivePack });
  servers.push(server);
  return {
    server,
    dataDir: await tempDir("crewbot-data-"),
    repo: async (owner, name, files) => {
      const dir = path.join(root, owner, `${name}.git`);
      await mkdir(dir, { recursive: true });
      await makeRepo(files, dir);
      return { dir, cloneUrl: server.cloneUrl(owner, name) };
    },
  };
}

/** Incompressible text, so pack sizes say how much was really sent. */
export const noise = (bytes: number) => randomBytes(Math.ceil((bytes * 3) / 4)).toString("base64").slice(0, bytes);

export async function commit(dir: string, files: Record<string, string>, message = "change"): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", message);
  return gitSync(dir, "rev-parse", "HEAD").trim();
}

/** Every regular file under `dir` (recursively, `.git` included) whose bytes contain `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(needle)) hits.push(file);
  }
  return hits;
}
