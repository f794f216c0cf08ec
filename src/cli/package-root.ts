import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The root of the mcpkit package this CLI runs from (dist/cli/ → ../..). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

/** bin/mcpkit.js of this package: what generated client configurations spawn. */
export const BIN = fileURLToPath(new URL('../../bin/mcpkit.js', import.meta.url));

export interface PackageJson {
  name: string;
  version: string;
  devDependencies?: Record<string, string>;
}

export function readPackage(): PackageJson {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;
}
