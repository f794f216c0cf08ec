// The `auth` section: server CPU per 2026-07-28 tools/call for mcpkit without the
// `auth` option and with it (jwtVerifier: its verified-token cache on, then off so
// that every request checks the RS256 signature against the cached JWKS, issuer,
// audience and expiry). Same server, same client, runs interleaved.
import { spawnServer, freePort, waitForPort, stop } from './proc.mjs';
import { HttpClient, load } from './http.mjs';

export const AUTH_VARIANTS = ['off', 'jwt', 'jwt-nocache'];

/** Starts the server and resolves with the token it printed ('-' without auth). */
async function start(variant) {
  const port = await freePort();
  const child = spawnServer('mcpkit-auth-http.mjs', ['--port', String(port), '--auth', variant], { stdout: 'ignore' });
  const token = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (d) => {
      seen += d;
      const match = /^TOKEN (\S+)$/m.exec(seen);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`auth bench server exited with ${code}: ${seen.slice(-500)}`)));
  });
  await waitForPort(port, child);
  return { child, port, token };
}

/** One measurement of one variant: { cpuUsPerReq1, cpuUsPerReq32, rps32 }. */
export async function measureAuth(variant, cfg) {
  const server = await start(variant);
  const headers = server.token === '-' ? {} : { authorization: `Bearer ${server.token}` };
  const client = await new HttpClient(server.port, 'modern', { maxSockets: 32, headers }).open();
  try {
    await client.check();
    await load(client, server.child.pid, { concurrency: 32, maxMs: cfg.warmMs });
    const c1 = await load(client, server.child.pid, { concurrency: 1, maxMs: cfg.ms1, count: cfg.n1 });
    const c32 = await load(client, server.child.pid, { concurrency: 32, maxMs: cfg.ms32, count: cfg.n32 });
    return { cpuUsPerReq1: c1.cpuUsPerReq, p50Us1: c1.p50, cpuUsPerReq32: c32.cpuUsPerReq, rps32: c32.rps };
  } finally {
    client.destroy();
    await stop(server.child);
  }
}
