import type { McpToolResult } from '../wire-types/index.js';
import { McpServer } from '../server/server.js';
import { StdioTransport } from '../transports/stdio.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

/** A tool of a provider module (the `McpToolProvider` contract). */
export interface McpToolDef {
  /** Module-local name; must match /^[a-zA-Z0-9_]+$/. */
  name: string;
  title?: string;
  description: string;
  /** A plain JSON Schema, advertised as given. */
  inputSchema: Record<string, unknown>;
  /** Validates its own arguments; an unexpected throw becomes an `isError` result carrying only the message. */
  handler: (args: unknown) => Promise<McpToolResult>;
}

export interface McpToolProvider {
  namespace: string;
  tools: McpToolDef[];
}

const NAME = /^[a-zA-Z0-9_]+$/;
const DEF_KEYS = keysOf<McpToolDef>({ name: true, title: true, description: true, inputSchema: true, handler: true });
const PROVIDER_KEYS = keysOf<McpToolProvider>({ namespace: true, tools: true });
const INFO_KEYS = ['name', 'version'];
const assemblyError = (message: string): Error => new McpAssemblyError(message);

export class McpAssemblyError extends Error {
  override readonly name = 'McpAssemblyError';
}

/**
 * Turns namespaced tool providers into one server. Every tool is served as
 * `${namespace}_${name}`; an invalid name or a duplicate wire name throws here,
 * at assembly, never at call time.
 */
export function assembleMcpServer(providers: McpToolProvider[], info: { name: string; version: string } = { name: 'mcpkit-server', version: '0.0.0' }): McpServer {
  refuseUnknownKeys(info, INFO_KEYS, 'assembleMcpServer() info', assemblyError);
  const server = new McpServer({ name: info.name, version: info.version });
  const seen = new Map<string, string>();
  for (const provider of providers) {
    refuseUnknownKeys(provider, PROVIDER_KEYS, `assembleMcpServer() provider ${JSON.stringify(provider?.namespace)}`, assemblyError);
    if (typeof provider.namespace !== 'string' || !NAME.test(provider.namespace)) {
      throw new McpAssemblyError(`Invalid provider namespace ${JSON.stringify(provider.namespace)}: it must match /^[a-zA-Z0-9_]+$/`);
    }
    for (const def of provider.tools) {
      if (typeof def.name !== 'string' || !NAME.test(def.name)) {
        throw new McpAssemblyError(`Invalid tool name ${JSON.stringify(def.name)} in namespace "${provider.namespace}": it must match /^[a-zA-Z0-9_]+$/`);
      }
      const wireName = `${provider.namespace}_${def.name}`;
      const owner = seen.get(wireName);
      if (owner !== undefined) {
        throw new McpAssemblyError(`Duplicate tool name "${wireName}": "${owner}" and "${provider.namespace}.${def.name}" both map to it`);
      }
      seen.set(wireName, `${provider.namespace}.${def.name}`);
      const where = `Tool "${provider.namespace}.${def.name}" (served as "${wireName}")`;
      refuseUnknownKeys(def, DEF_KEYS, where, assemblyError);
      if (typeof def.handler !== 'function') {
        throw new McpAssemblyError(`${where} has no handler: give it handler: async (args) => ({ content: [...] })`);
      }
      const handler = def.handler;
      try {
        server.tools.register(
          {
            name: wireName,
            ...(def.title !== undefined && { title: def.title }),
            description: def.description,
            inputSchema: def.inputSchema,
            execute: (args: unknown) => handler(args),
          },
          // Provider handlers validate their own arguments.
          { validateInput: false },
        );
      } catch (error) {
        // A name over 128 characters, a non-object or invalid inputSchema: an assembly mistake, named as such.
        throw new McpAssemblyError(`${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
  }
  return server;
}

/** Serves a server over this process's stdin/stdout. */
export async function runMcpStdio(server: McpServer): Promise<void> {
  await server.connect(new StdioTransport());
}
