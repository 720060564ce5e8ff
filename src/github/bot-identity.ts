import type { GitIdentity } from "./types.js";
import { noreplyDomain } from "./octokit.js";
import type { InstallationOctokit } from "./types.js";

/**
 * The author of crewbot's commits: `<slug>[bot]` with the noreply address GitHub links to the
 * app (`<id>+<slug>[bot]@users.noreply.github.com`, or the Enterprise host's noreply domain; the bot user's id asked once with
 * `GET /users/<slug>[bot]`), so commits show the app's avatar. `CREWBOT_BOT_NAME` and
 * `CREWBOT_BOT_EMAIL` override both; a failed lookup falls back to the address without the id
 * for this job and is tried again for the next.
 */
export function botIdentityResolver(env: NodeJS.ProcessEnv, appSlug: () => Promise<string>): (octokit: InstallationOctokit) => Promise<GitIdentity> {
  let known: GitIdentity | undefined;
  const domain = noreplyDomain(env);
  return async (octokit) => {
    if (known) return known;
    const login = `${await appSlug()}[bot]`;
    const name = env.CREWBOT_BOT_NAME || login;
    if (env.CREWBOT_BOT_EMAIL) return (known = { name, email: env.CREWBOT_BOT_EMAIL });
    try {
      const { data } = await octokit.request("GET /users/{username}", { username: login });
      return (known = { name, email: `${data.id}+${login}@${domain}` });
    } catch {
      return { name, email: `${login}@${domain}` };
    }
  };
}
