import { isPlainObject } from '../../jsonrpc/message.js';

/** A minimal shape check of an answer, so a malformed one never reaches the handler (both eras). */
export function plausibleAnswer(method: string, answer: unknown): boolean {
  if (!isPlainObject(answer)) return false;
  switch (method) {
    case 'elicitation/create':
      return answer['action'] === 'accept' || answer['action'] === 'decline' || answer['action'] === 'cancel';
    case 'sampling/createMessage':
      return typeof answer['role'] === 'string' && answer['content'] !== undefined;
    case 'roots/list':
      return Array.isArray(answer['roots']);
    default:
      return true;
  }
}
