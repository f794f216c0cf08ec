/**
 * What the store contract suites need from a test runner: `describe` and `it`
 * as vitest, Jest, Mocha and node:test spell them. Assertions use node:assert,
 * so the suites run under any of them.
 */
export interface ContractTestApi {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

/** Waits until `condition` holds; fails with `what` after `timeoutMs` (default 5 s). */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
