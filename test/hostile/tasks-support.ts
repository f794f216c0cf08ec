/**
 * Shared by the hostile tests of protocol-side state (tasks, subscriptions,
 * requestState): a bearer-token `authenticate`, a forced GC for memory
 * measurements, and 2026-07-28 calls that carry a token.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import type { AuthInfo } from '../../src/index.js';
import { expectValidWire } from '../support/wire-schema.js';
import { MODERN, modernRequest } from '../fixtures/modern-http.mjs';

export type Json = Record<string, unknown>;
export const TASKS = 'io.modelcontextprotocol/tasks';
export const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };

/** `Authorization: Bearer <user>` authenticates as subject `<user>`; no header is anonymous. */
export function bearer(request: { headers: Readonly<Record<string, string | undefined>> }): AuthInfo | undefined {
  const header = request.headers['authorization'];
  if (header === undefined) return undefined;
  const token = header.replace(/^Bearer /, '');
  return { token, subject: token, scopes: [] };
}

export function as(user: string | undefined): Record<string, string> {
  return user === undefined ? {} : { authorization: `Bearer ${user}` };
}

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap in use after two full collections (what is really retained). */
export function heapAfterGc(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

let nextId = 1;

/** One 2026-07-28 request as `user`; answers the status and the last JSON-RPC message, schema-checked. */
export async function modernCall(url: string, method: string, params: Json, options: { user?: string | undefined; capabilities?: Json } = {}): Promise<{ status: number; message: Json }> {
  const taskId = params['taskId'];
  const routing = typeof taskId === 'string' && method.startsWith('tasks/') ? { 'mcp-name': taskId } : {};
  const response = await modernRequest(url, nextId++, method, params, { capabilities: options.capabilities ?? WITH_TASKS, headers: { ...routing, ...as(options.user) } });
  const message = response.messages.at(-1) as Json;
  expectValidWire(message, MODERN);
  return { status: response.status, message };
}

/** The result of a call that must succeed. */
export async function modernResult(url: string, method: string, params: Json, options: { user?: string | undefined; capabilities?: Json } = {}): Promise<Json> {
  const { message } = await modernCall(url, method, params, options);
  expect(message['error']).toBeUndefined();
  return message['result'] as Json;
}

/** The JSON-RPC error an official v1 SDK call failed with (code, message as the SDK shows it, data). */
export async function sdkRefusal(promise: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message, data } = error as McpError;
  return { code, message, data };
}
