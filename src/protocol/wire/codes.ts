/** MCP's own error codes, as the specification's schema and prose define them. */
export const McpErrorCode = {
  /** Resource not found in legacy revisions (2026-07-28 uses -32602). */
  ResourceNotFound: -32002,
  /** A routing header disagrees with the body (2026-07-28). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the client did not declare (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** The requested protocol version is not supported (2026-07-28). */
  UnsupportedProtocolVersion: -32022,
  /** The server needs the user to complete a URL-mode elicitation first (2025-11-25). */
  UrlElicitationRequired: -32042,
} as const;
