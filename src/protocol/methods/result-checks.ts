/**
 * What handlers return, checked before it reaches a client. In plain JavaScript
 * nothing stops a tool from returning `{ type: 'txt' }` content or a reader from
 * returning `7`; sent as is, the client gets invalid MCP. Each check looks at
 * the shape only (a type switch per content block, no schema, no copy), so the
 * common result costs a few property reads. An invalid result becomes a valid
 * error for the client and one log line for the author saying what came back.
 */
import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';

type Json = Record<string, unknown>;
type Log = { error?(message: string, ...args: unknown[]): void } | undefined;

const CONTENT_TYPES = 'text, image, audio, resource_link or resource';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why one content block (CallToolResult, PromptMessage) is not valid, or undefined. */
function contentProblem(block: unknown, at: string): string | undefined {
  if (!isObject(block)) return `${at} is ${kind(block)}, not a content block`;
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string' ? undefined : `${at} is text content without a string "text"`;
    case 'image':
    case 'audio':
      return typeof block['data'] === 'string' && typeof block['mimeType'] === 'string' ? undefined : `${at} is ${String(block['type'])} content without string "data" (base64) and "mimeType"`;
    case 'resource_link':
      return typeof block['uri'] === 'string' && typeof block['name'] === 'string' ? undefined : `${at} is a resource_link without string "uri" and "name"`;
    case 'resource':
      return resourceContentsProblem(block['resource'], `${at}.resource`);
    default:
      return `${at} has type ${preview(block['type'])} (expected ${CONTENT_TYPES})`;
  }
}

/** One entry of `contents` (resources/read) or an embedded resource. */
function resourceContentsProblem(entry: unknown, at: string): string | undefined {
  if (!isObject(entry)) return `${at} is ${kind(entry)}, not resource contents`;
  if (typeof entry['uri'] !== 'string') return `${at} has no string "uri"`;
  if (typeof entry['text'] !== 'string' && typeof entry['blob'] !== 'string') return `${at} has neither a string "text" nor a base64 "blob"`;
  return undefined;
}

/** A CallToolResult's shape; a result of another kind (`resultType` other than complete) is left to its own machinery. */
export function toolResultProblem(result: unknown): string | undefined {
  if (!isObject(result)) return `the result is ${kind(result)}`;
  const content = result['content'];
  if (!Array.isArray(content)) {
    const type = result['resultType'];
    if (typeof type === 'string' && type !== 'complete') return undefined;
    return 'the result has no "content" array';
  }
  for (let i = 0; i < content.length; i++) {
    const problem = contentProblem(content[i], `content[${i}]`);
    if (problem !== undefined) return problem;
  }
  const structured = result['structuredContent'];
  if (structured !== undefined && !isObject(structured)) return `"structuredContent" is ${kind(structured)}, not an object`;
  if (result['isError'] !== undefined && typeof result['isError'] !== 'boolean') return `"isError" is ${kind(result['isError'])}, not a boolean`;
  return undefined;
}

/** What a reader returned before it is normalised: an object (contents or a whole result) or an array of them. */
export function readReturnProblem(value: unknown): string | undefined {
  if (isObject(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isObject(value[i])) return `entry ${i} is ${kind(value[i])}, not resource contents`;
    return undefined;
  }
  return `the reader returned ${kind(value)} (expected a string, bytes, a contents object or an array of them)`;
}

/** A ReadResourceResult's `contents`. */
export function readResultProblem(result: Json): string | undefined {
  const contents = result['contents'];
  if (!Array.isArray(contents)) {
    const type = result['resultType'];
    return typeof type === 'string' && type !== 'complete' ? undefined : 'the result has no "contents" array';
  }
  for (let i = 0; i < contents.length; i++) {
    const problem = resourceContentsProblem(contents[i], `contents[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A prompt's messages. */
export function promptMessagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return `the prompt returned ${kind(messages)} (expected a string, an array of messages or { messages })`;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isObject(message)) return `messages[${i}] is ${kind(message)}, not a message`;
    if (message['role'] !== 'user' && message['role'] !== 'assistant') return `messages[${i}] has role ${preview(message['role'])} (expected "user" or "assistant")`;
    const problem = contentProblem(message['content'], `messages[${i}].content`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The author's log line: who returned what, and why it was refused. */
export function logInvalidResult(logger: Log, who: string, returned: unknown, problem: string, answer: string): void {
  logger?.error?.(`mcpkit: ${who} returned an invalid result: ${problem}. It returned ${preview(returned)}; the client got ${answer}.`);
}

/** The tool's answer for an invalid result: a tool error the model can read. */
export function invalidToolResult(logger: Log, name: string, returned: unknown, problem: string): Json {
  logInvalidResult(logger, `tool "${name}"`, returned, problem, 'an isError result');
  return { content: [{ type: 'text', text: 'Internal error: the tool returned an invalid result' }], isError: true };
}

/** The -32603 for a resource or prompt whose handler returned an invalid result. */
export function invalidResultError(logger: Log, who: string, returned: unknown, problem: string): JsonRpcProtocolError {
  logInvalidResult(logger, who, returned, problem, '-32603');
  return new JsonRpcProtocolError(ErrorCode.InternalError, `Internal error: the ${who.split(' ')[0]} handler returned an invalid result`);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'undefined';
  return `a ${typeof value} (${preview(value)})`;
}

const PREVIEW_CHARS = 200;

/** A short, bounded JSON view of a value for the log (never throws). */
function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = '(a value that cannot be shown as JSON)';
  }
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
