/** Resources and templates as the lists show them, and what `resources/read` answers. */
import type { Annotations, Icon, Meta, ResourceContents, ResourceDescription } from './content.js';
import type { CacheHints, McpResult } from './result.js';

/** A resource template as `resources/templates/list` shows it (the spec's `ResourceTemplate`). */
export interface ResourceTemplateDescription {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ListResourcesResult extends McpResult, CacheHints {
  resources: ResourceDescription[];
  nextCursor?: string;
}

export interface ListResourceTemplatesResult extends McpResult, CacheHints {
  resourceTemplates: ResourceTemplateDescription[];
  nextCursor?: string;
}

export interface ReadResourceResult extends McpResult, CacheHints {
  contents: ResourceContents[];
}
