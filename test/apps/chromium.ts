/**
 * Headless Chromium driven over the DevTools protocol on a pipe
 * (--remote-debugging-pipe: NUL-separated JSON on fds 3 and 4). A pipe needs
 * no port, no WebSocket (Node 20 has none without a flag) and no dependency;
 * the browser is the Debian package, found or installed here, never skipped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
export const INSTALL_COMMAND = 'apt-get update && apt-get install -y chromium';

/** The Chromium binary: found, or installed when this is root on Debian; otherwise an error that says how. */
export function chromiumPath(): string {
  const found = (process.env['CHROMIUM_PATH'] ? [process.env['CHROMIUM_PATH']] : CANDIDATES).find((path) => existsSync(path));
  if (found) return found;
  if (process.getuid?.() === 0 && existsSync('/etc/debian_version')) {
    execFileSync('sh', ['-c', INSTALL_COMMAND], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  throw new Error(`The MCP Apps browser test needs Chromium and found none (${CANDIDATES.join(', ')}, or CHROMIUM_PATH). Install it: ${INSTALL_COMMAND}`);
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

export class Chromium {
  readonly #child: ChildProcess;
  readonly #profile: string;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  #nextId = 1;
  #buffer = '';

  private constructor(child: ChildProcess, profile: string) {
    this.#child = child;
    this.#profile = profile;
    const fromBrowser = child.stdio[4] as Readable;
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\0')) !== -1) {
        const message = JSON.parse(this.#buffer.slice(0, end)) as { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
        this.#buffer = this.#buffer.slice(end + 1);
        if (message.id !== undefined) {
          const waiter = this.#pending.get(message.id);
          this.#pending.delete(message.id);
          if (message.error) waiter?.reject(new Error(message.error.message));
          else waiter?.resolve(message.result ?? {});
        } else if (message.method) {
          const event: CdpEvent = { method: message.method, params: message.params ?? {}, ...(message.sessionId !== undefined && { sessionId: message.sessionId }) };
          for (const listener of this.#listeners) listener(event);
        }
      }
    });
  }

  static launch(): Chromium {
    const profile = mkdtempSync(join(tmpdir(), 'mcpkit-chromium-'));
    const args = [
      '--headless=new',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-extensions',
      '--hide-scrollbars',
      // Keep every frame's script context reachable from the page's session.
      '--disable-features=IsolateOrigins,site-per-process,IsolateSandboxedIframes',
      // Chromium's own sandbox needs user namespaces, which containers running as root rarely have.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--window-size=900,720',
      'about:blank',
    ];
    const child = spawn(chromiumPath(), args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    child.stderr?.resume();
    return new Chromium(child, profile);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const toBrowser = this.#child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId !== undefined && { sessionId }) })}\0`);
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Opens a tab and returns its session id (flat sessions: commands carry it). */
  async openPage(): Promise<string> {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    return sessionId as string;
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return void rmSync(this.#profile, { recursive: true, force: true });
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    await this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    rmSync(this.#profile, { recursive: true, force: true });
  }
}
