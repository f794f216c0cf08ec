import { spawn } from 'node:child_process';
import type { CliError } from '../errors.js';
import { notMcp, unreachable, type Json, type Wire } from './wire.js';

/**
 * A server process spoken to over stdin/stdout (newline-delimited JSON). Its
 * stderr is kept (the last lines explain a crash) and shown with `verbose`.
 */
export function spawnWire(command: string, args: string[], options: { verbose?: boolean; cwd?: string } = {}): Wire {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], cwd: options.cwd });
  let stderr = '';
  let closed = false;
  let failure: CliError | undefined;
  const wire: Wire = {
    onMessage: () => {},
    onClose: () => {},
    protocolVersion: undefined,
    async send(message) {
      if (failure) throw failure;
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      closed = true;
      child.stdin.end();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
  const fail = (error: CliError) => {
    if (failure) return;
    failure = error;
    wire.onClose(error);
  };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (options.verbose) process.stderr.write(chunk);
    stderr = (stderr + chunk).slice(-4000);
  });
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.trim();
      if (line === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        fail(notMcp(`the server wrote a line that is not JSON on stdout: ${JSON.stringify(line.slice(0, 200))}\nOn stdio, stdout carries only protocol messages: log with console.error.`));
        return;
      }
      if (message !== null && typeof message === 'object' && !Array.isArray(message)) wire.onMessage(message as Json);
    }
  });
  child.once('error', (error) => fail(unreachable(`could not start ${command}: ${error.message}`)));
  child.once('exit', (code, signal) => {
    if (closed) return;
    const tail = stderr.trimEnd().split('\n').slice(-15).join('\n');
    const hint = code === 0 && !tail ? ' (does the entry export its server, e.g. `export default server`, or serve stdio itself?)' : '';
    fail(unreachable(`the server exited (${signal ?? `code ${code}`}) before answering${hint}${tail ? `; its stderr:\n${tail}` : ''}`));
  });
  child.stdin.on('error', () => {}); // EPIPE after the child died: reported by 'exit'
  return wire;
}
