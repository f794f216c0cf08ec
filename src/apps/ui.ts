/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26):
 * what a tool and a `ui://` resource carry in `_meta.ui`, checked at registration.
 * The shapes are the extension's; nothing here talks to the protocol.
 */
import { kindOf, RegistrationError } from '../registries/checks.js';
import { keysOf, nearestKey } from '../util/known-keys.js';

/** The extension identifier clients and servers declare. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of an HTML view (the only one the extension defines). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

export type UiVisibility = 'model' | 'app';

/** Origins the view may reach; each maps to CSP directives the host builds. Omitted = none. */
export interface UiCsp {
  /** fetch/XHR/WebSocket origins (`connect-src`). */
  connectDomains?: readonly string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, …). */
  resourceDomains?: readonly string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: readonly string[];
  /** Allowed `<base>` URIs (`base-uri`). */
  baseUriDomains?: readonly string[];
}

/** Browser features the view asks for (hosts may grant them through the iframe's `allow`). */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A UI resource's `_meta.ui`: security and rendering settings. */
export interface UiResourceMeta {
  csp?: UiCsp;
  permissions?: UiPermissions;
  /** A dedicated sandbox origin; its format is host-specific. */
  domain?: string;
  /** true: the host draws a border and background; false: it does not; omitted: the host decides. */
  prefersBorder?: boolean;
}

/** A tool's `_meta.ui`. */
export interface UiToolMeta {
  resourceUri: string;
  visibility?: readonly UiVisibility[];
}

/**
 * A tool's view (`app` in `server.tool()`): which `ui://` resource renders its
 * results and who may call it. With `html`, the resource is registered too, and
 * `csp`, `permissions`, `domain` and `prefersBorder` go to that resource.
 */
export interface ToolApp extends UiResourceMeta {
  resourceUri: string;
  /** Who may call the tool: the model, the view (`app`), or both (the default). */
  visibility?: readonly UiVisibility[];
  /** The view's HTML: registers `resourceUri` as a UI resource in the same call. */
  html?: string | (() => string | Promise<string>);
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
const VISIBILITIES: readonly string[] = ['model', 'app'];
const RESOURCE_META_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'];
const APP_KEYS = keysOf<ToolApp>({ resourceUri: true, visibility: true, html: true, csp: true, permissions: true, domain: true, prefersBorder: true });
const didYouMean = (key: string, known: readonly string[]): string => {
  const near = nearestKey(key, known);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
};
/** scheme://host[:port], where the host may start with "*." (a wildcard subdomain). */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `ui://` URI with something after the scheme and nothing a URI may not hold. */
export function checkUiUri(uri: unknown, owner: string): asserts uri is string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length === 5 || /[\u0000-\u0020\u007f]/.test(uri)) {
    throw new RegistrationError(
      `${owner}: a UI resource URI must start with "ui://" and name the view, e.g. "ui://my-server/dashboard" (got ${typeof uri === 'string' ? JSON.stringify(uri) : kindOf(uri)})`,
    );
  }
}

/** Copies and checks a UI resource's settings; only the extension's keys pass. */
export function uiResourceMeta(settings: { [K in keyof UiResourceMeta]?: UiResourceMeta[K] | undefined }, owner: string): UiResourceMeta {
  const meta: { -readonly [K in keyof UiResourceMeta]: UiResourceMeta[K] } = {};
  if (settings.csp !== undefined) meta.csp = checkedCsp(settings.csp, owner);
  if (settings.permissions !== undefined) meta.permissions = checkedPermissions(settings.permissions, owner);
  if (settings.domain !== undefined) {
    if (typeof settings.domain !== 'string' || settings.domain.length === 0 || /[\s/]/.test(settings.domain)) {
      throw new RegistrationError(`${owner}: domain must be a host name such as "a904794854a047f6.claudemcpcontent.com" (its format is host-specific; got ${JSON.stringify(settings.domain)})`);
    }
    meta.domain = settings.domain;
  }
  if (settings.prefersBorder !== undefined) {
    if (typeof settings.prefersBorder !== 'boolean') throw new RegistrationError(`${owner}: prefersBorder must be true or false (got ${kindOf(settings.prefersBorder)})`);
    meta.prefersBorder = settings.prefersBorder;
  }
  return meta;
}

function checkedCsp(csp: unknown, owner: string): UiCsp {
  if (!isObject(csp)) throw new RegistrationError(`${owner}: csp must be an object with ${CSP_KEYS.join(', ')} (got ${kindOf(csp)})`);
  const out: Record<string, readonly string[]> = {};
  for (const [key, value] of Object.entries(csp)) {
    if (!(CSP_KEYS as readonly string[]).includes(key)) throw new RegistrationError(`${owner}: csp.${key} is not an MCP Apps CSP setting; use ${CSP_KEYS.join(', ')}${didYouMean(key, CSP_KEYS)}`);
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw new RegistrationError(`${owner}: csp.${key} must be an array of origins (got ${kindOf(value)})`);
    for (const origin of value as unknown[]) {
      // Keywords, paths or separators would be pasted into the host's CSP header as is.
      if (typeof origin !== 'string' || !ORIGIN.test(origin)) {
        throw new RegistrationError(
          `${owner}: csp.${key} has ${JSON.stringify(origin)}, which is not an origin; write scheme://host[:port] such as "https://api.example.com" or "https://*.example.com" (no paths, keywords or "*")`,
        );
      }
    }
    out[key] = Object.freeze([...(value as string[])]);
  }
  return out;
}

function checkedPermissions(permissions: unknown, owner: string): UiPermissions {
  if (!isObject(permissions)) throw new RegistrationError(`${owner}: permissions must be an object such as { camera: {} } (got ${kindOf(permissions)})`);
  const out: Record<string, Record<string, never>> = {};
  for (const [key, value] of Object.entries(permissions)) {
    if (!(PERMISSIONS as readonly string[]).includes(key)) throw new RegistrationError(`${owner}: permissions.${key} is not an MCP Apps permission; use ${PERMISSIONS.join(', ')}${didYouMean(key, PERMISSIONS)}`);
    if (value === undefined) continue;
    if (!isObject(value) || Object.keys(value).length > 0) throw new RegistrationError(`${owner}: permissions.${key} must be {} to request it (got ${JSON.stringify(value)})`);
    out[key] = {};
  }
  return out;
}

/** The tool's `_meta.ui`, checked. Resource settings without `html` are refused: they belong to the resource. */
export function uiToolMeta(app: ToolApp, owner: string): UiToolMeta {
  if (!isObject(app)) throw new RegistrationError(`${owner}: app must be an object such as { resourceUri: "ui://server/view" } (got ${kindOf(app)})`);
  checkUiUri(app.resourceUri, owner);
  for (const key of Object.keys(app)) {
    if (APP_KEYS.includes(key)) continue;
    throw new RegistrationError(`${owner}: app.${key} is not an MCP Apps setting; use ${APP_KEYS.join(', ')}${didYouMean(key, APP_KEYS)}`);
  }
  if (app.html === undefined) {
    const misplaced = RESOURCE_META_KEYS.filter((key) => (app as unknown as Record<string, unknown>)[key] !== undefined);
    if (misplaced.length > 0) {
      throw new RegistrationError(
        `${owner}: app.${misplaced.join(', app.')} describe the UI resource, not the tool: give them to server.uiResource(${JSON.stringify(app.resourceUri)}, html, { … }), or pass app.html so this call registers the resource`,
      );
    }
  } else if (typeof app.html !== 'string' && typeof app.html !== 'function') {
    throw new RegistrationError(`${owner}: app.html must be the view's HTML or a function returning it (got ${kindOf(app.html)})`);
  }
  const meta: { resourceUri: string; visibility?: readonly UiVisibility[] } = { resourceUri: app.resourceUri };
  if (app.visibility !== undefined) {
    const visibility: unknown = app.visibility;
    if (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => typeof v !== 'string' || !VISIBILITIES.includes(v)) || new Set(visibility).size !== visibility.length) {
      throw new RegistrationError(`${owner}: app.visibility must list "model", "app" or both, once each (got ${JSON.stringify(visibility)}); omit it for both`);
    }
    meta.visibility = Object.freeze([...(visibility as UiVisibility[])]);
  }
  return meta;
}

/** Adds `ui` to a `_meta` object, refusing a `ui` key the caller already set. */
export function withUiMeta(meta: Record<string, unknown> | undefined, ui: object, owner: string): Record<string, unknown> {
  if (meta !== undefined && Object.hasOwn(meta, 'ui')) throw new RegistrationError(`${owner}: _meta.ui is written from the app settings; set it there, not in _meta`);
  return { ...meta, ui };
}
