#!/usr/bin/env node
// A notes server protected by OAuth: tokens are JWTs from your authorization
// server (Auth0, Okta, Keycloak, Entra ID, …), issued for this server's URL.
//
//   OAUTH_ISSUER=https://your-tenant.us.auth0.com/ \
//   OAUTH_JWKS_URI=https://your-tenant.us.auth0.com/.well-known/jwks.json \
//   MCP_RESOURCE=https://notes.example.com/mcp  node examples/auth-jwt/server.js
//
// Without MCP_RESOURCE the server's own URL (http://127.0.0.1:PORT/mcp) is the resource.
import { McpServer } from 'mcpkit';
import { jwtVerifier } from 'mcpkit/auth';
import { listen } from 'mcpkit/http';

const issuer = process.env.OAUTH_ISSUER;
if (!issuer) {
  console.error('Set OAUTH_ISSUER to your authorization server (and OAUTH_JWKS_URI, unless its RFC 8414 metadata names it).');
  process.exit(2);
}

/** Notes per user: the token's subject, never anything the client says about itself. */
const notes = new Map();
const mine = (ctx) => notes.get(ctx.auth.subject) ?? [];

const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.tool('list_notes', { description: 'Your notes', scopes: ['notes:read'] }, (_args, ctx) =>
  mine(ctx).length === 0 ? 'No notes yet.' : mine(ctx).map((note, i) => `${i + 1}. ${note}`).join('\n'));

server.tool(
  'add_note',
  {
    description: 'Adds a note',
    input: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] },
    scopes: ['notes:write'],
  },
  ({ text }, ctx) => {
    notes.set(ctx.auth.subject, [...mine(ctx), text]);
    // To call another API for this user, get a token issued for *that* API (token exchange or
    // the server's own client credentials); ctx.accessToken() was issued for this server only.
    return `Saved note ${mine(ctx).length} for ${ctx.auth.subject}.`;
  },
);

const listener = await listen(server, {
  port: Number(process.env.PORT ?? 3000),
  auth: {
    ...(process.env.MCP_RESOURCE && { resource: process.env.MCP_RESOURCE }),
    authorizationServers: [issuer],
    // What clients ask for first; notes:write comes by step-up when a client first writes.
    scopesSupported: ['notes:read'],
    verify: jwtVerifier(process.env.OAUTH_JWKS_URI ? { jwksUri: process.env.OAUTH_JWKS_URI } : {}),
  },
});
console.error(`notes server listening on ${listener.url} (tokens from ${issuer} for ${listener.engine.resource})`);
