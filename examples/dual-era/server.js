// One server definition, two protocol eras. A legacy client (2024-11-05 …
// 2025-11-25) opens a session with `initialize`; a 2026-07-28 client sends
// `_meta` on every request and keeps no session. The handlers below do not
// care which one is calling.
import { McpServer } from 'mcpkit';

const partySize = {
  type: 'object',
  properties: { people: { type: 'integer', minimum: 1, maximum: 12 } },
  required: ['people'],
};

export function createDualEraServer(options = {}) {
  const server = new McpServer({
    name: 'dual-era-example',
    version: '1.0.0',
    // 2026-07-28 only: how long clients may cache list results and reads.
    results: { cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' }, default: { ttlMs: 0, cacheScope: 'private' } } },
    ...options,
  });

  server.tool(
    'book_table',
    {
      description: 'Books a table, asking the user for the party size first',
      input: {
        type: 'object',
        // `x-mcp-header`: 2026-07-28 HTTP clients mirror this argument into `Mcp-Param-Restaurant`.
        properties: { restaurant: { type: 'string', 'x-mcp-header': 'Restaurant' } },
        required: ['restaurant'],
      },
    },
    async ({ restaurant }, ctx) => {
      // Kept across the rounds of a 2026-07-28 request (signed by the server); plain memory on a legacy session.
      ctx.requestState.rounds = (ctx.requestState.rounds ?? 0) + 1;
      await ctx.log('info', `booking at ${restaurant}`);
      // Legacy: an elicitation/create request to the client. 2026-07-28: an input request
      // under the key "party_size"; the client retries with the answer.
      const answer = await ctx.elicit({ message: `How many people for ${restaurant}?`, requestedSchema: partySize }, { key: 'party_size' });
      if (answer.action !== 'accept') return `No booking at ${restaurant}.`;
      return `Booked a table for ${answer.content.people} at ${restaurant}.`;
    },
  );

  server.resource('menu://today', { name: 'menu', mimeType: 'text/plain' }, () => 'Soup, bread, and more soup.');

  return server;
}
