/**
 * MCP extensions (SEP-2133): optional features named `{vendor-prefix}/{name}`,
 * declared by the server in its capabilities (`server/discover`, legacy
 * `initialize`) and by the client per request (2026-07-28 `_meta`) or at
 * `initialize` (legacy). Nothing here talks to the protocol.
 */
import { MissingClientCapabilityError } from './wire/errors.js';
import type { ClientCapabilities, Implementation } from '../wire-types/index.js';
import { kindOf, RegistrationError } from '../registries/checks.js';

export type ExtensionSettings = Record<string, unknown>;

// _meta key rules with a mandatory prefix: dot-separated labels (letter first, letter or digit last), "/", a name.
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkExtensionId(id: unknown, owner: string): asserts id is string {
  if (typeof id !== 'string' || !EXTENSION_ID.test(id)) {
    throw new RegistrationError(
      `${owner}: ${typeof id === 'string' ? JSON.stringify(id) : kindOf(id)} is not an extension identifier; write {vendor-prefix}/{name} with a reversed domain you own, e.g. "com.example/my-extension" (official ones use "io.modelcontextprotocol/")`,
    );
  }
}

/** Whether the client declared extension `id` (its settings object is present). */
export function clientSupports(capabilities: ClientCapabilities | undefined, id: string): boolean {
  const extensions = capabilities?.extensions;
  return isObject(extensions) && isObject(extensions[id]);
}

/** The client's settings for extension `id`, when it declared it. */
export function clientExtensionSettings(capabilities: ClientCapabilities | undefined, id: string): ExtensionSettings | undefined {
  const extensions = capabilities?.extensions;
  const settings = isObject(extensions) ? extensions[id] : undefined;
  return isObject(settings) ? settings : undefined;
}

/** -32021 with `data.requiredCapabilities.extensions[id] = {}` unless the client declared every one of `ids`. */
export function requireExtensions(capabilities: ClientCapabilities | undefined, ids: readonly string[]): void {
  const missing = ids.filter((id) => !clientSupports(capabilities, id));
  if (missing.length === 0) return;
  const extensions = Object.fromEntries(missing.map((id) => [id, {}]));
  throw new MissingClientCapabilityError({ extensions }, missing.map((id) => `extensions["${id}"]`).join(', '));
}

export interface ExtensionOptions {
  /**
   * List it in legacy `initialize` capabilities too (default true). False for extensions
   * that exist only in 2026-07-28, such as tasks: they appear in `server/discover` only.
   */
  legacy?: boolean;
}

/** The extensions a server declares, in declaration order. */
export class ExtensionSet {
  readonly #declared = new Map<string, { settings: ExtensionSettings; legacy: boolean }>();
  #version = 0;

  /** Grows on every change (the server's metadata cache key reads it). */
  get version(): number {
    return this.#version;
  }

  declare(id: string, settings: ExtensionSettings = {}, options: ExtensionOptions = {}): void {
    checkExtensionId(id, 'server.extension()');
    if (!isObject(settings)) throw new RegistrationError(`server.extension(${JSON.stringify(id)}): settings must be a JSON object ({} for none; got ${kindOf(settings)})`);
    let json: string;
    try {
      json = JSON.stringify(settings);
    } catch (error) {
      throw new RegistrationError(`server.extension(${JSON.stringify(id)}): settings must be JSON (${(error as Error).message})`);
    }
    const legacy = options.legacy !== false;
    const previous = this.#declared.get(id);
    if (previous !== undefined && (JSON.stringify(previous.settings) !== json || previous.legacy !== legacy)) {
      throw new RegistrationError(`server.extension(${JSON.stringify(id)}) is already declared with other settings (${JSON.stringify(previous.settings)}); declare it once`);
    }
    if (previous !== undefined) return;
    this.#declared.set(id, { settings: JSON.parse(json) as ExtensionSettings, legacy });
    this.#version++;
  }

  has(id: string): boolean {
    return this.#declared.has(id);
  }

  /** `capabilities.extensions` for one era (fresh objects), or undefined when there is none. */
  toCapabilities(era: 'legacy' | 'modern'): Record<string, ExtensionSettings> | undefined {
    const listed = [...this.#declared].filter(([, entry]) => era === 'modern' || entry.legacy);
    return listed.length === 0 ? undefined : Object.fromEntries(listed.map(([id, entry]) => [id, structuredClone(entry.settings)]));
  }
}

/** `ctx.client`: who is asking and what it declared, per request (2026-07-28) or per session (legacy). */
export class ClientView {
  constructor(
    readonly info: Implementation | undefined,
    readonly capabilities: ClientCapabilities,
  ) {}

  /** Whether the client declared extension `id` (docs/extensions.md). */
  supports(id: string): boolean {
    return clientSupports(this.capabilities, id);
  }

  /** The client's settings for extension `id` (e.g. MCP Apps' `mimeTypes`), when it declared it. */
  extension(id: string): ExtensionSettings | undefined {
    return clientExtensionSettings(this.capabilities, id);
  }
}

export const NO_CLIENT: ClientView = Object.freeze(new ClientView(undefined, Object.freeze({}) as ClientCapabilities));
