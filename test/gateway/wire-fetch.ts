/**
 * A `fetch` for a downstream client of the gateway that validates every JSON-RPC message the
 * gateway sends back (JSON bodies and SSE events, on POST and GET streams) against the
 * revision's published schema, results against the method they answer. Problems are collected,
 * not thrown inside the stream reader, so a test asserts `wire.problems` is empty at its end.
 */
import { Client, StreamableHttpTransport, type ClientOptions } from '../../src/client.js';
import type { ProtocolVersion } from '../../src/protocol/wire/versions.js';
import type { Cleanup } from '../support/cleanup.js';
import { checkOutgoing } from '../support/wire.js';

type Json = Record<string, unknown>;

export interface WireFetch {
  readonly fetch: (input: string | URL, init: RequestInit) => Promise<Response>;
  /** Every message the gateway sent, in arrival order. */
  readonly messages: unknown[];
  /** One line per message that failed its schema (empty when the wire was right). */
  readonly problems: string[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function wireFetch(revision: string): WireFetch {
  const methods = new Map<unknown, string>();
  const messages: unknown[] = [];
  const problems: string[] = [];
  const check = (message: unknown): void => {
    messages.push(message);
    try {
      checkOutgoing(message, revision, (id) => methods.get(id));
    } catch (error) {
      problems.push(`${JSON.stringify(message).slice(0, 400)}: ${(error as Error).message.slice(0, 800)}`);
    }
  };
  const sse = async (body: ReadableStream<Uint8Array>): Promise<void> => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
          const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
          if (data !== '') check(JSON.parse(data));
        }
      }
    } catch {
      // The client closed the stream (abort, close): what arrived was checked.
    }
  };
  return {
    messages,
    problems,
    async fetch(input, init) {
      if (typeof init.body === 'string') {
        const sent: unknown = JSON.parse(init.body);
        for (const item of Array.isArray(sent) ? sent : [sent]) if (isObject(item) && 'id' in item && typeof item['method'] === 'string') methods.set(item['id'], item['method']);
      }
      const response = await fetch(input, init);
      const type = response.headers.get('content-type') ?? '';
      const init2 = { status: response.status, statusText: response.statusText, headers: response.headers };
      if (response.body === null || response.status === 202 || response.status === 204) return response;
      if (type.includes('text/event-stream')) {
        const [mine, theirs] = response.body.tee();
        void sse(mine);
        return new Response(theirs, init2);
      }
      if (type.includes('application/json')) {
        const text = await response.text();
        if (text !== '') check(JSON.parse(text));
        return new Response(text, init2);
      }
      return response;
    },
  };
}

/** A downstream mcpkit client whose every received message is schema-checked; `cleanup` gets its close. */
export async function checkedClient(url: string, version: ProtocolVersion, cleanup: Cleanup, options: ClientOptions = {}): Promise<{ client: Client; wire: WireFetch }> {
  const wire = wireFetch(version);
  const client = new Client({ protocolVersion: version, ...options });
  await client.connect(new StreamableHttpTransport(url, { fetch: wire.fetch }));
  cleanup.push(() => client.close());
  return { client, wire };
}
