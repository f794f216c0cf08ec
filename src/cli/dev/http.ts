/**
 * `mcpkit dev` over HTTP: this process owns the port and proxies every request
 * to the current child (the entry served by host.js on a private port). A
 * reload starts a new child, switches to it once it listens, then stops the
 * old one, so the port never closes. A child that fails to start leaves the
 * previous one serving.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOST } from '../target.js';

interface Child {
  process: ChildProcess;
  port: number;
}

function startChild(flags: string[], entry: string, publicPort: number): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = fork(HOST, [entry, '--http', String(publicPort)], { execArgv: flags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message: { ready?: number }) => {
      if (typeof message.ready === 'number') resolve({ process: child, port: message.ready });
    });
    child.once('exit', (code, signal) => reject(new Error(`the server exited while starting (${signal ?? `code ${code}`})`)));
  });
}

function stopChild(child: Child | undefined): void {
  if (child && child.process.exitCode === null) child.process.kill('SIGTERM');
}

function unavailable(res: ServerResponse, why: string): void {
  res.writeHead(503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `mcpkit dev: ${why}` } }));
}

export interface DevHttp {
  url: string;
  reload(): Promise<boolean>;
  close(): Promise<void>;
}

export async function devHttp(entry: string, flags: string[], port: number, host: string, log: (line: string) => void): Promise<DevHttp> {
  let current: Child | undefined;
  let lastError = 'the server has not started yet';

  const proxy = (req: IncomingMessage, res: ServerResponse) => {
    const target = current;
    if (!target) return unavailable(res, `${lastError}; fix it and save to retry`);
    const upstream = request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.once('error', (error) => {
      if (!res.headersSent) unavailable(res, `the server is restarting (${error.message}); retry`);
      else res.destroy();
    });
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  let bound = 0;
  const reload = async (): Promise<boolean> => {
    try {
      const next = await startChild(flags, entry, bound);
      const previous = current;
      current = next;
      next.process.once('exit', () => {
        if (current === next) {
          current = undefined;
          lastError = 'the server exited';
          log('the server exited; save a change to restart it');
        }
      });
      stopChild(previous);
      return true;
    } catch (error) {
      lastError = (error as Error).message;
      log(`${lastError}${current ? '; the previous version keeps serving' : ''}`);
      return false;
    }
  };

  const server = createServer(proxy);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  await reload();
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/mcp`,
    reload,
    async close() {
      stopChild(current);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
