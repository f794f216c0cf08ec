import { parseArgs } from 'node:util';
import { usage } from './errors.js';

type Spec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
type Values<O extends Spec> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string;
};

/** `util.parseArgs` in strict mode, with its errors turned into usage errors that name the command. */
export function parse<const O extends Spec>(command: string, argv: string[], options: O): { values: Values<O>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: true, strict: true });
    return { values, positionals };
  } catch (error) {
    throw usage(`${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')}\n(run: mcpkit ${command} --help)`);
  }
}

/** A TCP port from the command line or PORT. */
export function portOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port must be an integer from 0 to 65535, got "${value}"`);
  return port;
}
