/**
 * Every options object and registration config refuses a key it does not know, at construction,
 * with the key, where it was given and the nearest valid key (issue 22). In plain JavaScript a
 * misspelt `scope` for `scopes` used to leave a tool open to every caller.
 */
import { describe, expect, it } from 'vitest';
import { assembleMcpServer, McpAssemblyError, McpServer, MemoryNotificationBus, MemoryTaskStore, RegistrationError, StdioTransport, type TaskChannel } from '../../src/index.js';
import { createFetchHandler, createHttpEngine, createNodeHandler, listen, MemoryEventStore, MemorySessionStore, MemorySharedSessionStore } from '../../src/http.js';
import { mountMcpHttp } from '../../src/express.js';
import { introspectionVerifier, jwtVerifier } from '../../src/auth.js';
import { instrument } from '../../src/otel.js';
import {
  createRedisState,
  RedisClusterChannel,
  RedisEventStore,
  RedisNotificationBus,
  RedisSessionStore,
  RedisTaskChannel,
  RedisTaskStore,
  type RedisClientLike,
} from '../../src/redis.js';
import { createTestClient } from '../../src/testing/index.js';

const info = { name: 'keys', version: '1.0.0' };
const server = (): McpServer => new McpServer(info);
// Never reached: each constructor refuses its options before it touches the client.
const client = {} as RedisClientLike;
const noop = (): string => 'ok';
const verify = async () => ({ token: 't', clientId: 'c', scopes: [] });
const auth = { authorizationServers: ['https://as.example'], verify, resource: 'http://127.0.0.1/mcp' };

/** [what, the call, the message it must throw] — each misspells one real key. */
const cases: [string, () => unknown, string][] = [
  ['server config', () => new McpServer({ ...info, pageSzie: 10 } as never), 'unknown option `pageSzie` in new McpServer() config — did you mean `results.pageSize`?'],
  ['tool config', () => server().tool('x', { scope: ['a'] } as never, noop), 'unknown option `scope` in server.tool("x") config — did you mean `scopes`?'],
  ['tool update', () => server().tool('x', {}, noop).update({ timeout: 5 } as never), 'unknown option `timeout` in tool.update("x") config — did you mean `timeoutMs`?'],
  ['resource config', () => server().resource('a://b', { mimetype: 'text/plain' } as never, noop), 'unknown option `mimetype` in server.resource("a://b") config — did you mean `mimeType`?'],
  [
    'resource template config',
    () => server().resourceTemplate('a://{b}', { completes: {} } as never, noop),
    'unknown option `completes` in server.resourceTemplate("a://{b}") config — did you mean `complete`?',
  ],
  ['prompt config', () => server().prompt('p', { argument: [] } as never, noop), 'unknown option `argument` in server.prompt("p") config — did you mean `arguments`?'],
  [
    'UI resource config',
    () => server().uiResource('ui://a/b', '<!doctype html>', { prefersBoarder: true } as never),
    'unknown option `prefersBoarder` in server.uiResource("ui://a/b") config — did you mean `prefersBorder`?',
  ],
  ['tool app', () => server().tool('x', { app: { resourceUri: 'ui://a/b', visiblity: ['app'] } } as never, noop), 'app.visiblity is not an MCP Apps setting; use resourceUri, visibility'],
  ['stdio config', () => new StdioTransport({ maxLineLenght: 10 } as never), 'unknown option `maxLineLenght` in new StdioTransport() config — did you mean `maxLineLength`?'],
  ['http engine', () => createHttpEngine(server(), { statless: true } as never), 'unknown option `statless` in createHttpEngine() options — did you mean `stateless`?'],
  ['node handler', () => createNodeHandler(server(), { limits: { maxBodyByte: 1 } } as never), 'unknown option `limits.maxBodyByte` in createNodeHandler() options — did you mean `limits.maxBodyBytes`?'],
  // A key given at the old flat place is pointed to its group.
  ['a flat HTTP key', () => createNodeHandler(server(), { maxBodyBytes: 1 } as never), 'unknown option `maxBodyBytes` in createNodeHandler() options — did you mean `limits.maxBodyBytes`?'],
  ['a flat server key', () => new McpServer({ ...info, requestTimeoutMs: 1 } as never), 'unknown option `requestTimeoutMs` in new McpServer() config — did you mean `limits.requestTimeoutMs`?'],
  ['server limits', () => new McpServer({ ...info, limits: { maxBatchSise: 1 } } as never), 'unknown option `limits.maxBatchSise` in new McpServer() config — did you mean `limits.maxBatchSize`?'],
  ['server results', () => new McpServer({ ...info, results: { pagesize: 1 } } as never), 'unknown option `results.pagesize` in new McpServer() config — did you mean `results.pageSize`?'],
  ['server requestState', () => new McpServer({ ...info, requestState: { key: [] } } as never), 'unknown option `requestState.key` in new McpServer() config — did you mean `requestState.keys`?'],
  ['server tasks', () => new McpServer({ ...info, tasks: { inputTimeout: 1 } } as never), 'unknown option `tasks.inputTimeout` in new McpServer() config — did you mean `tasks.inputTimeoutMs`?'],
  ['http security', () => createHttpEngine(server(), { security: { trustProxies: 1 } } as never), 'unknown option `security.trustProxies` in createHttpEngine() options — did you mean `security.trustProxy`?'],
  ['http sessions', () => createHttpEngine(server(), { sessions: { idleTimeout: 1 } } as never), 'unknown option `sessions.idleTimeout` in createHttpEngine() options — did you mean `sessions.idleTimeoutMs`?'],
  ['http cluster', () => createHttpEngine(server(), { sessions: { cluster: { session: {} } } } as never), 'unknown option `sessions.cluster.session` in createHttpEngine() options — did you mean `sessions.cluster.sessions`?'],
  ['adapter-only key on the engine', () => createHttpEngine(server(), { maxStreamBufferBytes: 1 } as never), 'unknown option `maxStreamBufferBytes` in createHttpEngine() options'],
  ['fetch stream buffer', () => createFetchHandler(server(), { maxStreamBufferByte: 1 } as never), 'unknown option `maxStreamBufferByte` in createFetchHandler() options — did you mean `maxStreamBufferBytes`?'],
  ['fetch handler', () => createFetchHandler(server(), { remoteAdress: noop } as never), 'unknown option `remoteAdress` in createFetchHandler() options — did you mean `remoteAddress`?'],
  ['listen', () => listen(server(), { prot: 0 } as never), 'unknown option `prot` in listen() options — did you mean `port`?'],
  ['express', () => mountMcpHttp({} as never, server(), { security: { allowedHost: [] } } as never), 'unknown option `security.allowedHost` in mountMcpHttp() options — did you mean `security.allowedHosts`?'],
  ['auth', () => createHttpEngine(server(), { auth: { ...auth, requiredScope: ['a'] } } as never), 'unknown option `auth.requiredScope` in createHttpEngine() options — did you mean `auth.requiredScopes`?'],
  ['cors', () => createHttpEngine(server(), { security: { cors: { maxAge: 1 } } } as never), 'unknown option `security.cors.maxAge` in createHttpEngine() options — valid options: `security.cors.maxAgeSeconds`'],
  ['legacy SSE', () => createHttpEngine(server(), { legacySse: { ssePth: '/s' } } as never), 'unknown option `legacySse.ssePth` in createHttpEngine() options — did you mean `legacySse.ssePath`?'],
  ['server card', () => createHttpEngine(server(), { serverCard: { name: 'a/b', repo: {} } } as never), 'unknown option `serverCard.repo` in createHttpEngine() options'],
  ['jwt verifier', () => jwtVerifier({ issuer: 'https://as.example' } as never), 'unknown option `issuer` in jwtVerifier() options — did you mean `issuers`?'],
  ['introspection verifier', () => introspectionVerifier({ endpoint: 'https://as.example/i', clientID: 'c' } as never), 'unknown option `clientID` in introspectionVerifier() options — did you mean `clientId`?'],
  ['otel', () => instrument({ captureArgs: true } as never), 'unknown option `captureArgs` in instrument() options — did you mean `captureArguments`?'],
  ['memory task store', () => new MemoryTaskStore({ maxTask: 1 } as never), 'unknown option `maxTask` in new MemoryTaskStore() options — did you mean `maxTasks`?'],
  ['memory bus', () => new MemoryNotificationBus({ onError: noop } as never), 'unknown option `onError` in new MemoryNotificationBus() options'],
  ['memory session store', () => new MemorySessionStore({ idleTimeout: 1 } as never), 'unknown option `idleTimeout` in new MemorySessionStore() options — did you mean `idleTimeoutMs`?'],
  ['memory event store', () => new MemoryEventStore({ maxByte: 1 } as never), 'unknown option `maxByte` in new MemoryEventStore() options — did you mean `maxBytes`?'],
  [
    'memory shared session store',
    () => new MemorySharedSessionStore({ ttl: 1 } as never),
    'unknown option `ttl` in new MemorySharedSessionStore() options',
  ],
  ['redis bus', () => new RedisNotificationBus(client, { prefx: 'a' } as never), 'unknown option `prefx` in new RedisNotificationBus() options — did you mean `prefix`?'],
  ['redis event store', () => new RedisEventStore(client, { idleTtl: 1 } as never), 'unknown option `idleTtl` in new RedisEventStore() options — did you mean `idleTtlMs`?'],
  ['redis session store', () => new RedisSessionStore(client, { idleTimeout: 1 } as never), 'unknown option `idleTimeout` in new RedisSessionStore() options — did you mean `idleTimeoutMs`?'],
  ['redis task store', () => new RedisTaskStore(client, { lease: 1 } as never), 'unknown option `lease` in new RedisTaskStore() options — did you mean `leaseMs`?'],
  // instanceID differs from instanceId only in case (distance 0): still refused, and named.
  ['redis task channel', () => new RedisTaskChannel(client, { instanceID: 'a' } as never), 'unknown option `instanceID` in new RedisTaskChannel() options — did you mean `instanceId`?'],
  ['redis cluster channel', () => new RedisClusterChannel(client, { instanceTtl: 1 } as never), 'unknown option `instanceTtl` in new RedisClusterChannel() options — did you mean `instanceTtlMs`?'],
  ['test client', () => createTestClient(server(), { capabilites: {} } as never), 'unknown option `capabilites` in createTestClient() options — did you mean `capabilities`?'],
  ['assembled tool', () => assembleMcpServer([{ namespace: 'n', tools: [{ name: 't', description: 'd', inputSchema: {}, handler: async () => ({ content: [] }), titel: 'T' }] } as never]), 'unknown option `titel` in Tool "n.t" (served as "n_t") — did you mean `title`?'],
];

describe('unknown option keys are refused where they are given', () => {
  it.each(cases)('%s', async (_what, call, message) => {
    let thrown: unknown;
    try {
      await call();
    } catch (error) {
      thrown = error;
    }
    // McpAssemblyError (the seed API's one error for a composition mistake) is an Error; every other is a TypeError.
    expect(thrown).toBeInstanceOf(thrown instanceof McpAssemblyError ? Error : TypeError);
    expect((thrown as Error).message).toContain(message);
  });

  it('registration configs throw RegistrationError, assembly McpAssemblyError', () => {
    expect(() => server().tool('x', { scope: ['a'] } as never, noop)).toThrow(RegistrationError);
    expect(() => assembleMcpServer([{ namespace: 'n', tools: [], extra: 1 } as never])).toThrow(McpAssemblyError);
  });

  it('createRedisState refuses a misspelt key and the nested tasks and events options', async () => {
    const stateKeys = ['k'.repeat(32)];
    await expect(createRedisState({ client, stateKeys, instanceID: 'a' } as never)).rejects.toThrow('did you mean `instanceId`?');
    await expect(createRedisState({ client, stateKeys, tasks: { lease: 1 } } as never)).rejects.toThrow('in the tasks option of createRedisState() — did you mean `leaseMs`?');
    await expect(createRedisState({ client, stateKeys, events: { maxEvent: 1 } } as never)).rejects.toThrow('in the events option of createRedisState() — did you mean `maxEvents`?');
  });

  it('exclusive pairs are refused in plain JavaScript too (TypeScript refuses them as unions)', () => {
    const shared = { sessions: new MemorySharedSessionStore(), channel: {} as never };
    // @ts-expect-error auth and authenticate are one choice
    expect(() => createHttpEngine(server(), { auth, authenticate: () => undefined })).toThrow('give either auth (OAuth resource server) or authenticate (your own check), not both');
    // @ts-expect-error a stateless engine has no sessions
    expect(() => createHttpEngine(server(), { stateless: true, sessions: { idleTimeoutMs: 1 } })).toThrow('sessions cannot be combined with stateless: true');
    // @ts-expect-error the shared store sets the idle expiry
    expect(() => createHttpEngine(server(), { sessions: { cluster: shared, idleTimeoutMs: 1 } })).toThrow('sessions.idleTimeoutMs cannot be combined with sessions.cluster');
    // @ts-expect-error a task channel needs the store it carries changes of
    expect(() => new McpServer({ ...info, tasks: { channel: {} as TaskChannel } })).toThrow('tasks.channel needs tasks.store');
  });

  it('a tool with a misspelt key is never registered', () => {
    const s = server();
    expect(() => s.tool('x', { scope: ['admin'] } as never, noop)).toThrow();
    expect(s.tools.has('x')).toBe(false);
  });

  it('every valid key still passes', async () => {
    const s = new McpServer({ ...info, results: { pageSize: 10, maskErrors: true }, strictToolNames: true });
    s.tool('x', { description: 'd', scopes: ['a'], timeoutMs: 5 }, noop);
    s.resource('a://b', { mimeType: 'text/plain', scopes: ['a'] }, noop);
    s.prompt('p', { arguments: [{ name: 'a' }] }, noop);
    await createHttpEngine(s, { stateless: true, security: { cors: { maxAgeSeconds: 1 } }, auth }).close();
    expect(s.tools.has('x')).toBe(true);
  });
});
