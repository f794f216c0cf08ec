/**
 * The session-backend seam (docs/architecture.md, "The session backend"): the HTTP path asks
 * `ctx.sessions` and never which backend it is, and the cluster's live session copy overrides
 * no hook of HttpSession that exists only for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SharedHttpSession } from '../../../src/transports/http/cluster.js';
import { HttpSession } from '../../../src/transports/http/sessions.js';

const DIR = new URL('../../../src/transports/http/', import.meta.url);
const withoutComments = (code: string): string => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('the session backend seam', () => {
  it('is the only place that names the cluster session or asks for its class', () => {
    const files = readdirSync(DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.startsWith('cluster'));
    expect(files).toContain('get.ts');
    const offenders = files.filter((file) => file !== 'engine.ts' && /SharedHttpSession|ClusterSessionRegistry/.test(withoutComments(readFileSync(new URL(file, DIR), 'utf8'))));
    expect(offenders).toEqual([]);
    // The engine only constructs the cluster backend from the `sessions.cluster` option.
    const engine = withoutComments(readFileSync(new URL('engine.ts', DIR), 'utf8'));
    expect(engine.match(/SharedHttpSession|instanceof ClusterSessionRegistry/g)).toBeNull();
  });

  it('leaves HttpSession with no member that only the cluster copy overrides, except send (forwarded to the GET stream holder)', () => {
    const base = new Set(Object.getOwnPropertyNames(HttpSession.prototype));
    const overridden = Object.getOwnPropertyNames(SharedHttpSession.prototype).filter((name) => name !== 'constructor' && base.has(name));
    expect(overridden).toEqual(['send']);
  });
});
