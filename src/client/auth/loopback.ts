/**
 * The authorizer for command-line clients (RFC 8252 §7.3): a one-route HTTP
 * server on 127.0.0.1 receives the redirect; the authorization URL is handed
 * to `open` (print it, or launch a browser). The server is unref'd and closes
 * with `close()`; each authorization waits at most `timeoutMs`. node:http is
 * loaded when the first redirect URI is asked for, not with mcpkit/client.
 */
import type { Server } from 'node:http';
import type { OAuthAuthorizer } from './authorizer.js';
import { McpAuthError } from './errors.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';

const KEYS = keysOf<LoopbackAuthorizerOptions>({ port: true, path: true, open: true, timeoutMs: true });

export interface LoopbackAuthorizerOptions {
  /** Default 0: a free port, chosen once and kept until close(). */
  port?: number;
  /** Default `/callback`. */
  path?: string;
  /** Shows the URL to the user. Default: prints it on stderr. */
  open?: (url: URL) => void | Promise<void>;
  /** How long to wait for the redirect (default 5 minutes). */
  timeoutMs?: number;
}

export interface LoopbackAuthorizer extends OAuthAuthorizer {
  close(): Promise<void>;
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>Authorized</title><p>Authorization complete: you can close this window.</p>';

export function loopbackAuthorizer(options: LoopbackAuthorizerOptions = {}): LoopbackAuthorizer {
  refuseUnknownKeys(options, KEYS, 'loopbackAuthorizer(options)');
  const path = options.path ?? '/callback';
  const timeoutMs = options.timeoutMs ?? 300_000;
  const open = options.open ?? ((url: URL) => void process.stderr.write(`Open this URL to authorize:\n  ${url.href}\n`));
  let server: Server | undefined;
  let listening: Promise<string> | undefined;
  let waiter: ((url: URL) => void) | undefined;

  const start = (): Promise<string> => {
    listening ??= import('node:http').then(({ createServer }) => new Promise<string>((resolve, reject) => {
      server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (req.method !== 'GET' || url.pathname !== path || waiter === undefined) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
        const deliver = waiter;
        waiter = undefined;
        deliver(url);
      });
      server.once('error', (error) => reject(new McpAuthError('config', `loopbackAuthorizer: cannot listen on 127.0.0.1:${options.port ?? 0}: ${error.message}`, { cause: error })));
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server!.unref();
        const address = server!.address();
        resolve(`http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : options.port}${path}`);
      });
    }));
    return listening;
  };

  return {
    redirectUri: start,
    async authorize(url, { redirectUri, signal }) {
      await start();
      const received = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          reject(new McpAuthError('denied', `loopbackAuthorizer: no redirect to ${redirectUri} within ${timeoutMs} ms`));
        }, timeoutMs);
        const onAbort = (): void => {
          clearTimeout(timer);
          waiter = undefined;
          reject(new McpAuthError('denied', 'loopbackAuthorizer: aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiter = (callback) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(new URL(`${redirectUri}${callback.search}`));
        };
      });
      await open(url);
      return received;
    },
    async close() {
      const running = server;
      server = undefined;
      listening = undefined;
      if (running !== undefined) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
}
