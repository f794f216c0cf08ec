/**
 * Shared by the capability tests: a test client whose every received message
 * is validated against the spec schema of the revision in use.
 */
import type { ConnectionFactory } from '../../src/protocol/connection.js';
import { createTestClient, type TestClient, type TestClientOptions } from '../../src/testing/index.js';
import { definitionForMethod, expectValidWire } from '../support/wire-schema.js';

import { LEGACY, MODERN } from '../support/revisions.js';

export { LEGACY, MODERN };

/** Validates one message as `expectValidWire` does, checking a response's result against the method it answers. */
export function validate(message: unknown, revision: string, answers?: string): void {
  const method = answers !== undefined && definitionForMethod(answers, revision)?.kind === 'request' ? answers : undefined;
  expectValidWire(message, revision, method);
}

/** A client whose every received message is schema-validated. */
export function client(server: ConnectionFactory, options: TestClientOptions = {}): TestClient {
  return createTestClient(server, {
    ...options,
    onMessage: (message, info) => {
      validate(message, info.protocolVersion, info.answers);
      options.onMessage?.(message, info);
    },
  });
}

/** A legacy client that already completed `initialize`. */
export async function connected(server: ConnectionFactory, options: TestClientOptions & { protocolVersion?: string } = {}): Promise<TestClient> {
  const { protocolVersion, ...clientOptions } = options;
  const c = client(server, clientOptions);
  await c.initialize({ protocolVersion: protocolVersion ?? LEGACY });
  return c;
}

/** Lets queued immediates and timers of 0 ms run. */
export async function tick(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** The last response the client received. */
export function lastResponse(c: TestClient): Record<string, unknown> {
  const found = [...c.messages].reverse().find((m) => 'id' in m && !('method' in m));
  if (found === undefined) throw new Error('no response received');
  return found as unknown as Record<string, unknown>;
}
