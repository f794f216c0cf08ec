/** The real McpServer the integration tests drive, and the gates its tools wait on. */
import { McpServer, type McpServerConfig } from '../../../src/server/server.js';
import type { AbortSignalLike } from '../../../src/protocol/connection.js';

interface Gate {
  promise: Promise<void>;
  open: () => void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** Gates a test opens to let a waiting tool finish (ordering without timing). */
export class Gates {
  private readonly gates = new Map<string, Gate>();
  readonly completed: string[] = [];
  readonly aborted: string[] = [];

  get(name: string): Gate {
    let g = this.gates.get(name);
    if (g === undefined) this.gates.set(name, (g = gate()));
    return g;
  }

  open(name: string): void {
    this.get(name).open();
  }

  private readonly waiters = new Set<string>();

  /** A tool is waiting on this gate now. */
  waiting(name: string): boolean {
    return this.waiters.has(name);
  }

  /** Resolves true when released, false when `signal` aborts first. */
  wait(name: string, signal: AbortSignalLike): Promise<boolean> {
    this.waiters.add(name);
    return new Promise<boolean>((resolve) => {
      if (signal.aborted) return resolve(false);
      signal.addEventListener('abort', () => resolve(false), { once: true });
      void this.get(name).promise.then(() => resolve(true));
    });
  }
}

const textInput = { type: 'object', properties: { text: { type: 'string' } } } as const;
const gateInput = { type: 'object', properties: { gate: { type: 'string' } } } as const;

/** The real McpServer with the tools the HTTP tests drive. */
export function buildServer(gates = new Gates(), config: Partial<McpServerConfig> = {}): { server: McpServer; gates: Gates } {
  const server = new McpServer({ name: 'http-test', version: '1.0.0', ...config });
  server.tool('echo', { description: 'Echoes text', input: textInput }, ({ text }) => {
    gates.completed.push(`echo:${String(text)}`);
    return str(text, '');
  });
  server.tool('wait', { description: 'Waits for a gate the test opens', input: gateInput }, async ({ gate: name }, ctx) => {
    const g = str(name, 'wait');
    if (!(await gates.wait(g, ctx.signal))) {
      gates.aborted.push(g);
      throw new Error('aborted');
    }
    gates.completed.push(`wait:${g}`);
    return `released ${g}`;
  });
  server.tool('progress', { description: 'Reports progress three times', input: { type: 'object' } }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) await ctx.progress(i, 3, `step ${i}`);
    await ctx.log('info', 'progress done');
    return 'progressed';
  });
  server.tool('elicit', { description: 'Asks the user for a name', input: { type: 'object' } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const name = (answer.content as { name?: unknown } | undefined)?.name;
    return `hello ${str(name, 'nobody')}`;
  });
  server.tool('poll', { description: 'Closes its stream, then finishes when a gate opens', input: gateInput }, async ({ gate: name }, ctx) => {
    await ctx.progress(1);
    ctx.closeStream({ retryMs: 20 });
    if (!(await gates.wait(str(name, 'poll'), ctx.signal))) throw new Error('aborted');
    await ctx.progress(2);
    return 'polled';
  });
  server.tool('steps', { description: 'Progress 1, waits for a gate, progress 2', input: gateInput }, async ({ gate: name }, ctx) => {
    await ctx.progress(1);
    if (!(await gates.wait(str(name, 'steps'), ctx.signal))) {
      gates.aborted.push(str(name, 'steps'));
      throw new Error('aborted');
    }
    await ctx.progress(2);
    gates.completed.push(`steps:${str(name, 'steps')}`);
    return 'stepped';
  });
  server.tool('flood', { description: 'Sends 400 log messages of 16 KiB each', input: { type: 'object' } }, async (_args, ctx) => {
    const chunk = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 400; i++) await ctx.log('info', chunk);
    gates.completed.push('flood');
    return 'flooded';
  });
  return { server, gates };
}

