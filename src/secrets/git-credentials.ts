/**
 * How git gets an installation token: only as a per-command `Authorization` header (never in a
 * remote URL or `.git/config`), the form GitHub expects over HTTPS. `redact` knows this form too.
 */
export function authHeader(token: string): string {
  return `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
}
