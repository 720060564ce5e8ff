/**
 * What tests and benches need to run the real app against stand-ins, free of any test runner:
 * an app private key, an Octokit without retries or throttling, a free port, webhook signing.
 */
import { createHmac, generateKeyPairSync } from "node:crypto";
import { createServer } from "node:net";
import { ProbotOctokit } from "probot";

/** A real RSA key, so Probot signs real JWTs for the installation-token request. */
export const PRIVATE_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

// The object form of `defaults` does not switch throttling off in Probot 14.
export const TestOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
}));

/** A port nothing listens on right now, on the loopback. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** `X-Hub-Signature-256` as GitHub computes it. */
export const signWebhook = (body: string, secret: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
