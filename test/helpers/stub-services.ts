/**
 * `JobServices` for unit tests: each port holds only what the test gives it. Using anything else
 * throws, naming the port and the member, so a test never passes on a stand-in it did not mean to use.
 */
import type { JobServices } from "../../src/jobs/services.js";

export type ServiceOverrides = { [Port in keyof JobServices]?: Partial<JobServices[Port]> };

const PORTS: readonly (keyof JobServices)[] = ["github", "runtime", "records", "operator", "observe"];

/** Members asked for by `await`, JSON and the test runner's printing, not by the code under test. */
const NOT_A_MEMBER = new Set(["then", "toJSON", "asymmetricMatch", "$$typeof", "nodeType", "constructor"]);

function strictPort<T extends object>(name: string, given: T): T {
  return new Proxy(given, {
    get(target, member, receiver) {
      if (typeof member === "symbol" || member in target || NOT_A_MEMBER.has(member)) return Reflect.get(target, member, receiver);
      throw new Error(`stubServices: the test gave no ${name}.${member}, and the code under test used it`);
    },
  });
}

/** Strict stand-ins: `stubServices({ records: { learnings }, observe: { log } })`. */
export function stubServices(overrides: ServiceOverrides = {}): JobServices {
  return Object.fromEntries(PORTS.map((port) => [port, strictPort(port, { ...overrides[port] })])) as unknown as JobServices;
}
