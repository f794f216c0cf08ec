/** What the server asks of the client: elicitation, sampling, roots. */
import type { ContentBlock, Meta } from './content.js';

/** 2025-11-25: asks the receiver to run the request as a task, kept `ttl` ms from creation. */
export interface TaskMetadata {
  ttl?: number;
}

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
  task?: TaskMetadata;
  _meta?: Meta;
}

export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
  task?: TaskMetadata;
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
  task?: TaskMetadata;
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
