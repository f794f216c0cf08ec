/**
 * Reads the wire log the fixture server writes when MCPKIT_WIRE_LOG is set
 * (<prefix>.<pid>.in / <prefix>.<pid>.out): what an SDK client sent, and
 * everything mcpkit wrote back, validated against the negotiated revision.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutgoing } from './wire.js';

type Json = Record<string, unknown>;

export interface ProcessWire {
  pid: string;
  /** Messages the client wrote to the server's stdin, in order. */
  inbound: Json[];
  /** Messages the server wrote to stdout, in order. */
  outbound: unknown[];
}

export interface WireLog {
  /** The value for MCPKIT_WIRE_LOG. */
  readonly prefix: string;
  /** Every fixture process that logged, in pid order. */
  read(): ProcessWire[];
  remove(): void;
}

function parseLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

export function wireLog(): WireLog {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-wire-'));
  const prefix = join(dir, 'wire');
  return {
    prefix,
    read() {
      const pids = new Set<string>();
      for (const name of readdirSync(dir)) {
        const match = /^wire\.(\d+)\.(in|out)$/.exec(name);
        if (match?.[1] !== undefined) pids.add(match[1]);
      }
      const load = (file: string): string => {
        try {
          return readFileSync(join(dir, file), 'utf8');
        } catch {
          return '';
        }
      };
      return [...pids].sort().map((pid) => ({
        pid,
        inbound: parseLines(load(`wire.${pid}.in`)) as Json[],
        outbound: parseLines(load(`wire.${pid}.out`)),
      }));
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Validates everything one process wrote. The revision of each response is
 * the one its request announced in `_meta` (2026-07-28) or else `legacy`.
 */
export function validateProcessWire(wire: ProcessWire, legacy: string): number {
  const requests = new Map<unknown, Json>();
  for (const message of wire.inbound) if (typeof message['method'] === 'string' && 'id' in message) requests.set(message['id'], message);
  const announced = (message: unknown): string | undefined => {
    const id = (message as Json)['id'];
    const params = requests.get(id)?.['params'] as Json | undefined;
    const meta = params?.['_meta'] as Json | undefined;
    const version = meta?.['io.modelcontextprotocol/protocolVersion'];
    return typeof version === 'string' ? version : undefined;
  };
  for (const message of wire.outbound) {
    checkOutgoing(message, announced(message) ?? legacy, (id) => requests.get(id)?.['method'] as string | undefined);
  }
  return wire.outbound.length;
}
