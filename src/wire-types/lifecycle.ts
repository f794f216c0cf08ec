/** Who the peers are and what they can do: `initialize` (legacy) and `server/discover` (2026-07-28). */
import type { Icon } from './content.js';
import type { CacheHints, McpResult } from './result.js';

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: { context?: Record<string, unknown>; tools?: Record<string, unknown> };
  elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
  /** 2025-11-25 task-augmented requests the client accepts (`cancel`, `list`, `requests`). */
  tasks?: Record<string, unknown>;
  experimental?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: Record<string, never>;
  completions?: Record<string, never>;
  /** 2025-11-25 task-augmented requests the server accepts (`cancel`, `list`, `requests`). */
  tasks?: Record<string, unknown>;
  experimental?: Record<string, Record<string, unknown>>;
  extensions?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface InitializeResult extends McpResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** `server/discover` (2026-07-28). */
export interface DiscoverResult extends McpResult, CacheHints {
  /** Not in the 2026-07-28 schema (`serverInfo` is in `_meta`); read when a server sends it here. */
  serverInfo?: Implementation;
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}
