/** The negotiated legacy session as plain JSON (issue 10's record); stores keep it as it is. */
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from '../../protocol/types.js';

export interface SessionRecord {
  readonly v: 1;
  readonly protocolVersion: string;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  readonly logLevel?: LoggingLevel;
  readonly subscriptions: readonly string[];
}
