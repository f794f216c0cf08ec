/** MCP's own error codes live with the error catalogue; re-exported for the protocol's imports. */
export { McpErrorCode } from '../../errors/codes.js';
