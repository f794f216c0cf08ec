/** Protocol-level wire shapes (the content shapes live with the registries that produce them). */
import type { ContentBlock, Icon, Meta } from '../../registries/types.js';

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
  experimental?: Record<string, Record<string, unknown>>;
  extensions?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export type ProgressToken = string | number;

/** Form-mode elicitation (the 2025-11-25 restricted schema subset). */
export interface ElicitFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  _meta?: Meta;
}

export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
  _meta?: Meta;
}

export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: Meta;
}

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: ContentBlock | Record<string, unknown> | (ContentBlock | Record<string, unknown>)[];
  _meta?: Meta;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  tools?: Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  _meta?: Meta;
}

export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: ContentBlock | Record<string, unknown> | (ContentBlock | Record<string, unknown>)[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}
