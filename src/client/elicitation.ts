/**
 * Form-mode elicitation answers: the defaults of `requestedSchema` fill what the
 * handler left out (SEP-1034), then the content is checked against the schema
 * with the project's own JSON Schema validator before it reaches the server.
 */
import { isPlainObject } from '../jsonrpc/message.js';
import { compileSchema } from '../schema/index.js';
import type { ElicitResult } from '../wire-types/index.js';

/** The answer to send, or a message saying why the handler's answer breaks `requestedSchema`. */
export async function completeElicitation(requestedSchema: unknown, result: ElicitResult): Promise<{ ok: true; result: ElicitResult } | { ok: false; message: string }> {
  if (result.action !== 'accept' || !isPlainObject(requestedSchema)) return { ok: true, result };
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  const properties = requestedSchema['properties'];
  if (isPlainObject(properties)) {
    for (const [key, property] of Object.entries(properties)) {
      if (content[key] === undefined && isPlainObject(property) && property['default'] !== undefined) content[key] = property['default'];
    }
  }
  let schema;
  try {
    schema = compileSchema(requestedSchema); // compiled once per schema object (the schema layer caches)
  } catch {
    return { ok: true, result: { ...result, content: content as NonNullable<ElicitResult['content']> } }; // a schema we cannot compile: sent unchecked
  }
  const checked = await schema.validate(content);
  if (!checked.ok) return { ok: false, message: `The elicitation answer does not match requestedSchema: ${checked.message}` };
  return { ok: true, result: { ...result, content: content as NonNullable<ElicitResult['content']> } };
}
