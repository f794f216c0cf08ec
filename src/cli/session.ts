/** Opens a client on a command's target, runs `work`, and always closes it. */
import { McpClient, type ClientHandlers, type Connected, type Era } from './client/client.js';
import { usage } from './errors.js';
import { openWire, type OpenOptions } from './target.js';

/** The options of every command that talks to a server. */
export const TARGET_OPTIONS = {
  era: { type: 'string' },
  header: { type: 'string', multiple: true },
  verbose: { type: 'boolean' },
} as const;

export const ERA_HELP = '--era E          auto (default: 2026-07-28 when the server speaks it, else legacy) | legacy | 2026-07-28';

export function eraOf(value: string | undefined): Era {
  if (value === undefined || value === 'auto' || value === 'legacy' || value === '2026-07-28') return value ?? 'auto';
  throw usage(`--era must be auto, legacy or 2026-07-28, got "${value}"`);
}

/** `--header 'Name: value'` options as a header record. */
export function headersOf(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw usage(`--header must look like "Name: value", got "${h}"`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  return headers;
}

export async function withClient<T>(
  target: string,
  options: OpenOptions & { era: Era; handlers?: ClientHandlers },
  work: (client: McpClient, connected: Connected) => Promise<T>,
): Promise<T> {
  const client = new McpClient(openWire(target, options), options.handlers);
  try {
    return await work(client, await client.connect(options.era));
  } finally {
    await client.close();
  }
}
