import { randomBytes } from "node:crypto";
import { mkdir, realpath, rm } from "node:fs/promises";
import path from "node:path";

/** `CREWBOT_DATA_DIR`, default `./data`: job store, workspaces and transcripts. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.CREWBOT_DATA_DIR || "./data");
}

export function newJobId(prefix = "job"): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  return `${prefix}-${stamp}-${randomBytes(3).toString("hex")}`;
}

export interface JobDirs {
  jobDir: string;
  /** Full tool outputs and large hand-overs; kept after the job for the transcript. */
  artifactsDir: string;
  /** bash's HOME; removed when the job ends. */
  scratchDir: string;
  /** Where a write job's checkout lives; removed when the job ends. */
  workDir: string;
}

export async function makeJobDirs(root: string, jobId: string): Promise<JobDirs> {
  const jobDir = path.join(root, "jobs", jobId);
  const dirs = {
    jobDir,
    artifactsDir: path.join(jobDir, "artifacts"),
    scratchDir: path.join(jobDir, "scratch"),
    workDir: path.join(jobDir, "work"),
  };
  await Promise.all([mkdir(dirs.artifactsDir, { recursive: true }), mkdir(dirs.scratchDir, { recursive: true })]);
  // Tools compare realpaths; resolve once so a symlinked data dir still matches.
  return {
    jobDir: await realpath(jobDir),
    artifactsDir: await realpath(dirs.artifactsDir),
    scratchDir: await realpath(dirs.scratchDir),
    workDir: path.join(await realpath(jobDir), "work"),
  };
}

/** What is not worth keeping once the job is over; artifacts stay. */
export async function cleanJobDirs(dirs: JobDirs): Promise<void> {
  await Promise.all([
    rm(dirs.scratchDir, { recursive: true, force: true }),
    rm(dirs.workDir, { recursive: true, force: true }),
  ]);
}
