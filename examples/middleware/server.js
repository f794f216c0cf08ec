// Middleware: logging, timing and access control that filters tools/list by caller.
// Run: node examples/middleware/server.js  (PORT overrides 3003; send `Authorization: Bearer admin` to see admin tools)
import { McpServer } from 'mcpkit';
import { listen } from 'mcpkit/http';

const server = new McpServer({ name: 'middleware-example', version: '1.0.0' });
server.tool('status', { description: 'Public status', annotations: { readOnlyHint: true } }, () => 'all good');
server.tool('admin_reset', { description: 'Admin only: reset everything', _meta: { 'example/role': 'admin' } }, () => 'reset done');

const isAdmin = (ctx) => ctx.authInfo?.scopes?.includes('admin') === true;

// 1. Logging: one line per request on stderr (stdout stays clean for stdio deployments).
server.use(async (ctx, next) => {
  try {
    return await next();
  } finally {
    console.error(`[mcp] ${ctx.method} by ${ctx.request.authInfo?.clientId ?? 'anonymous'}`);
  }
});

// 2. Timing: measured around the handler, reported in the result's _meta.
server.use('tools/call', async (ctx, next) => {
  const started = performance.now();
  const result = await next();
  return { ...result, _meta: { ...result._meta, 'example/durationMs': Math.round(performance.now() - started) } };
});

// 3. Access control: non-admins neither see nor call admin tools.
const adminOnly = (tool) => tool._meta?.['example/role'] === 'admin';
server.use('tools/list', async (ctx, next) => {
  const result = await next();
  return isAdmin(ctx.request) ? result : { ...result, tools: result.tools.filter((tool) => !adminOnly(tool)) };
});
server.use('tools/call', async (ctx, next) => {
  const tool = server.tools.get(ctx.params.name);
  if (tool && adminOnly(tool) && !isAdmin(ctx.request)) {
    return { content: [{ type: 'text', text: `Tool ${ctx.params.name} needs the admin role` }], isError: true };
  }
  return next();
});

const listener = await listen(server, {
  port: Number(process.env.PORT ?? 3003),
  // A real server verifies a token here (OAuth, API key…); the example trusts the bearer value.
  authenticate: (req) => {
    const token = req.headers['authorization']?.replace(/^Bearer /, '');
    return token ? { token, clientId: token, scopes: token === 'admin' ? ['admin'] : [] } : undefined;
  },
});
console.error(`listening on ${listener.url}`);
process.once('SIGTERM', () => listener.close());
