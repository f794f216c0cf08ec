// mcpkit over Streamable HTTP, 2026-07-28 requests (each one verified on its own),
// with `--auth off` (no auth option), `--auth jwt` (the `auth` option with
// jwtVerifier: an RS256 key whose JWKS this process serves at /jwks, fetched once;
// a verified token is remembered until it expires) or `--auth jwt-nocache` (the
// signature checked on every request). The token is printed as `TOKEN <jwt>` on stderr.
import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { jwtVerifier } from '../../dist/auth.js'; // mcpkit/auth
import { createNodeHandler } from '../../dist/http.js'; // mcpkit/http
import { arg, host, port, installMemoryProbe } from './_common.mjs';
import { createServer } from './mcpkit-server.mjs';

installMemoryProbe();
const origin = `http://${host}:${port}`;
const resource = `${origin}/mcp`;
const server = createServer();

const variant = arg('auth', 'off');
if (variant === 'jwt' || variant === 'jwt-nocache') {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }] });
  const handler = createNodeHandler(server, {
    path: '/mcp',
    auth: { resource, authorizationServers: [origin], verify: jwtVerifier({ jwksUri: `${origin}/jwks`, ...(variant === 'jwt-nocache' && { cacheMaxEntries: 0 }) }) },
  });
  http
    .createServer((req, res) => (req.url === '/jwks' ? res.writeHead(200, { 'content-type': 'application/json' }).end(jwks) : handler(req, res)))
    .listen(port, host);
  const token = await new SignJWT({ scope: 'mcp:read' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench', typ: 'at+jwt' })
    .setIssuer(origin)
    .setAudience(resource)
    .setSubject('bench-user')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  process.stderr.write(`TOKEN ${token}\n`);
} else {
  http.createServer(createNodeHandler(server, { path: '/mcp' })).listen(port, host);
  process.stderr.write('TOKEN -\n');
}
