/**
 * `mcpkit/testing`: test your MCP server without sockets or processes.
 *
 * `createTestClient(server)` opens an in-memory connection on the server,
 * speaks either protocol era, records every message the server sends and
 * answers elicitation, sampling and roots requests with handlers you give it.
 */
export { createTestClient, MODERN_PROTOCOL_VERSION, TestClient } from './client.js';
export type { ClientRequestExtra, ElicitHandler, InitializeParams, ListRootsHandler, MessageInfo, RequestOptions, SampleHandler, TestClientOptions } from './client.js';
export { TestClientError } from './errors.js';
// The result types its methods return are the wire types of the root entry (mcpkit: McpToolResult, ListToolsResult, …).
export { waitFor, type ContractTestApi } from './contracts/api.js';
export { describeNotificationBusContract, type BusFixture } from './contracts/bus.js';
export { describeEventStoreContract, type EventStoreFactory, type EventStoreFixture } from './contracts/event-store.js';
export { describeTaskStoreContract, type TaskStoreFactory, type TaskStoreFixture } from './contracts/task-store.js';
export { describeSessionStoreContract, type SessionStoreFactory, type SessionStoreFixture } from './contracts/session-store.js';
