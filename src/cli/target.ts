/**
 * What a command talks to: an `http(s)://` URL, or a server file run through
 * dist/cli/host.js (TypeScript through Node's type stripping where it exists).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, Exit, usage } from './errors.js';
import { httpWire } from './client/http.js';
import { spawnWire } from './client/stdio.js';
import type { Wire } from './client/wire.js';

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
}

export function openWire(target: string, options: OpenOptions = {}): Wire {
  if (isUrl(target)) return httpWire(target, options.headers);
  const path = entryPath(target);
  return spawnWire(process.execPath, [...nodeFlagsFor(path), HOST, path], { ...(options.verbose === undefined ? {} : { verbose: options.verbose }) });
}
