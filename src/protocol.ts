/**
 * `mcpkit/protocol`: the plumbing under the authoring API, for transports, gateways and tools
 * built on mcpkit: JSON-RPC classification and error envelopes, the connection contracts a
 * transport drives, principals and quota owners, server metadata, session records, URI templates,
 * schema compilation and the protocol revisions. A server author needs only `mcpkit`.
 */

// JSON-RPC 2.0
export { errorResponseFrom, isJsonRpcProtocolError, parseErrorResponse } from './jsonrpc/errors.js';
export { classify, isValidId, type Classified } from './jsonrpc/message.js';
export { UnserializableMessageError } from './jsonrpc/serialize.js';

// The contracts a transport drives
export type { ConnectionFactory, ConnectionOptions, HandleResult, McpConnection, MessageExtra, MessageSink, RequestInfo, ScopeAccess } from './protocol/connection.js';
export { parseSessionRecord, type RecordChangeListener, type SessionRecord } from './protocol/wire/session-record.js';
export { principalOf, quotaOwnerOf, samePrincipal } from './protocol/request/principal.js';
export { buildServerMetadata } from './protocol/wire/metadata.js';
export {
  DEFAULT_HTTP_VERSION,
  LATEST_LEGACY_VERSION,
  LATEST_VERSION,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  SUPPORTED_VERSIONS,
} from './protocol/wire/versions.js';

// Registries' and schemas' machinery
export { UriTemplate } from './registries/uri-template.js';
export { compileSchema, isStandardSchema } from './schema/index.js';
