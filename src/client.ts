/**
 * `mcpkit/client`: an MCP client for both protocol eras (legacy `initialize`
 * sessions and 2026-07-28 per-request `_meta`) over stdio, Streamable HTTP
 * (with the 2024-11-05 HTTP+SSE fallback) and in memory. See docs/client.md.
 */
export { Client } from './client/client.js';
export type { CallToolOptions, ClientOptions, ElicitationHandler, HandlerExtra, ListOptions, RequestOptions as PerRequestOptions, RootsSource, SamplingHandler, TaskStartOptions } from './client/client.js';
export { McpError, McpTransportError, ToolResultError, isMcpError } from './client/errors.js';
export type { TransportFailure } from './client/errors.js';
export { StdioClientTransport } from './client/stdio.js';
export type { StdioOptions } from './client/stdio.js';
export { StreamableHttpTransport } from './client/http.js';
export type { StreamableHttpOptions, TokenProvider } from './client/http.js';
export { InMemoryTransport } from './client/memory.js';
export type { InMemoryOptions } from './client/memory.js';
export { ClientSkills } from './client/skills.js';
export type { ListSkillsResult, SkillFetchOptions, SkillListOptions, SkillsHost } from './client/skills.js';
export { ClientTasks, TASKS_EXTENSION } from './client/tasks.js';
export type { CallTaskOptions, ClientTask, ClientTaskList, TaskDefaults, TaskWaitOptions } from './client/tasks.js';
// A skill's verification without a transport (SEP-2640): what client.skills uses, for any reader.
export { checkSkillEntry, fetchSkill, frontmatterDifferences, SkillVerificationError, skillRoot, verifySkillFile } from './skills/format/verify.js';
export type { EntryLimits, FetchSkillOptions, LoadedSkill, SkillEntry, SkillFileEntry, SkillReader, SkillReadResult, SkillVerificationFailure } from './skills/format/verify.js';
export type { ClientTransport, OutboundInfo, TransportSink } from './client/transport.js';
export type { AbortSignalLike } from './protocol/connection.js';
// The result and wire types its methods return (McpToolResult, ListToolsResult, ToolDescription, …) are the root
// entry's (mcpkit), the one set the server uses too: every name is exported from exactly one entry.
export { oauth, OAuthClientProvider } from './client/auth/flow.js';
export type { OAuthOptions, OAuthCommonOptions } from './client/auth/flow.js';
export { clientCredentials } from './client/auth/client-credentials.js';
export type { ClientCredentialsOptions } from './client/auth/client-credentials.js';
export { headlessAuthorizer } from './client/auth/headless.js';
export type { HeadlessAuthorizerOptions } from './client/auth/headless.js';
export type { OAuthAuthorizer } from './client/auth/authorizer.js';
export { MemoryTokenStore } from './client/auth/store.js';
export type { OAuthStore, OAuthTokens, OAuthClientInformation } from './client/auth/store.js';
export type { PreRegisteredClient } from './client/auth/registration.js';
export { McpAuthError } from './client/auth/errors.js';
export type { AuthFailure } from './client/auth/errors.js';
export type { HttpAuthProvider, UnauthorizedAnswer } from './client/http.js';
export { loopbackAuthorizer } from './client/auth/loopback.js';
export type { LoopbackAuthorizer, LoopbackAuthorizerOptions } from './client/auth/loopback.js';
