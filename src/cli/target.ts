/**
 * What a command talks to: an `http(s)://` URL, or a server file run through
 * dist/cli/host.js (TypeScript through Node's type stripping where it exists).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport, StreamableHttpTransport, type ClientTransport, type HttpAuthProvider } from '../client.js';
import { CliError, Exit, usage } from './errors.js';

export const HOST = fileURLToPath(new URL('./host.js', import.meta.url));

export const isUrl = (target: string): boolean => /^https?:\/\//i.test(target);

/** Whether Node `version` runs TypeScript: 'default' (stripping is on), 'flag' (behind a flag) or false. */
export function typeStripping(version = process.versions.node): 'default' | 'flag' | false {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18)) return 'default';
  if (major > 22 || (major === 22 && minor >= 6)) return 'flag';
  return false;
}

/** Node flags that let this Node run `entry`, or a precise error when it cannot. */
export function nodeFlagsFor(entry: string, version = process.versions.node): string[] {
  if (!/\.(ts|mts|cts)$/.test(entry)) return [];
  const stripping = typeStripping(version);
  if (stripping === 'default') return [];
  if (stripping === 'flag') return ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
  throw new CliError(
    `${entry} is TypeScript, and Node ${version} cannot run TypeScript (type stripping arrived in Node 22.6).\n` +
      'Use Node ≥ 22.6, or compile first (npx tsc) and pass the .js file, e.g. mcpkit dev dist/server.js.',
    Exit.FAILURE,
  );
}

/** The absolute path of an existing entry file. */
export function entryPath(entry: string): string {
  const path = resolve(entry);
  if (!existsSync(path)) throw usage(`${entry}: no such file`);
  return path;
}

export interface OpenOptions {
  verbose?: boolean;
  headers?: Record<string, string>;
  /** The OAuth provider of `--oauth` (HTTP only). */
  auth?: HttpAuthProvider;
}

/** The transport to a target: Streamable HTTP for a URL, the entry run through host.js over stdio otherwise. */
export function openTransport(target: string, options: OpenOptions = {}): StdioClientTransport | StreamableHttpTransport {
  if (isUrl(target)) return new StreamableHttpTransport(target, { headers: options.headers ?? {}, ...(options.auth === undefined ? {} : { auth: options.auth }) });
  const path = entryPath(target);
  return new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlagsFor(path), HOST, path],
    ...(options.verbose === true ? { onStderr: (chunk: string) => void process.stderr.write(chunk) } : {}),
  });
}

/**
 * The client puts up with a line that is not JSON and keeps reading; the CLI does not: on stdio that line
 * is almost always a console.log in the server, and saying so beats a call that half works.
 */
export function strictStdout(inner: ClientTransport, fail: (error: CliError) => void): ClientTransport {
  return {
    start: (sink) =>
      inner.start({
        message(message) {
          const invalid = (message as { invalid?: unknown } | null)?.invalid;
          if (typeof invalid === 'string' && invalid.includes('not JSON')) {
            fail(new CliError(`the server sent ${invalid}\nLog with console.error (stderr), never console.log.`, Exit.PROTOCOL));
            return;
          }
          sink.message(message);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (message, info) => inner.send(message, info),
    negotiated: (version) => inner.negotiated?.(version),
    close: () => inner.close(),
  };
}
