/**
 * Upstream credentials from the document's `securitySchemes`, configured per provider by scheme
 * name. For each call the first of the operation's security alternatives whose schemes all have
 * a credential is applied; nothing from the MCP request (its Authorization header, its token)
 * is ever copied to the upstream request.
 */
import { OpenApiError } from './errors.js';
import { CLIENT_CREDENTIALS_KEYS, clientCredentialsSource, tokenEndpoint, type OpenApiClientCredentials, type TokenSource } from './oauth.js';
import { refuseUnknownKeys } from '../util/known-keys.js';

/** A secret, or a function that returns the current one (read on every call: rotation needs no restart). */
export type Secret = string | (() => string | Promise<string>);

/**
 * A credential for one security scheme: a secret (API key, bearer or OAuth access token),
 * basic-auth user and password, or, for an `oauth2` scheme, client credentials the provider
 * exchanges for access tokens itself.
 */
export type OpenApiCredential = Secret | { readonly username: string; readonly password: Secret } | OpenApiClientCredentials;

interface Scheme {
  readonly type: string;
  readonly in?: string;
  readonly name?: string;
  readonly scheme?: string;
}

export interface Applied {
  headers: Record<string, string>;
  query: string[];
  cookies: string[];
  /** OAuth tokens obtained with client credentials, to forget when the API answers 401. */
  tokens: { source: TokenSource; token: string }[];
}

/** Token sources for the schemes given client credentials, by scheme name. */
export type TokenSources = ReadonlyMap<string, TokenSource>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const read = async (secret: Secret): Promise<string> => (typeof secret === 'function' ? await secret() : secret);

export function securitySchemes(root: Record<string, unknown>): Record<string, Scheme> {
  const components = root['components'];
  const schemes = isObject(components) ? components['securitySchemes'] : undefined;
  return isObject(schemes) ? (schemes as Record<string, Scheme>) : {};
}

const isClientCredentials = (v: unknown): v is OpenApiClientCredentials => isObject(v) && 'clientId' in v;

/**
 * Refuses credentials for schemes the document does not declare, or of a shape the scheme cannot
 * use; answers a token source for each `oauth2` scheme given client credentials.
 */
export function checkCredentials(
  credentials: Record<string, OpenApiCredential>,
  schemes: Record<string, Scheme>,
  upstream: { readonly base: URL; readonly fetch: typeof fetch; readonly timeoutMs: number },
): TokenSources {
  const sources = new Map<string, TokenSource>();
  for (const [name, credential] of Object.entries(credentials)) {
    const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
    if (scheme === undefined) {
      const declared = Object.keys(schemes);
      throw new OpenApiError(`credentials.${name}: the document declares no security scheme "${name}" (${declared.length === 0 ? 'it declares none' : `declared: ${declared.join(', ')}`})`);
    }
    if (isClientCredentials(credential)) {
      if (scheme.type !== 'oauth2') throw new OpenApiError(`credentials.${name}: client credentials need an oauth2 security scheme; "${name}" is ${scheme.type}`);
      refuseUnknownKeys(credential, CLIENT_CREDENTIALS_KEYS, `credentials.${name}`, (m) => new OpenApiError(m));
      if (typeof credential.clientId !== 'string' || credential.clientId === '') throw new OpenApiError(`credentials.${name}.clientId must be a non-empty string`);
      if (typeof credential.clientSecret !== 'string' && typeof credential.clientSecret !== 'function') throw new OpenApiError(`credentials.${name}.clientSecret must be a string or a function returning one`);
      if (credential.authMethod !== undefined && credential.authMethod !== 'client_secret_basic' && credential.authMethod !== 'client_secret_post') {
        throw new OpenApiError(`credentials.${name}.authMethod must be "client_secret_basic" or "client_secret_post"`);
      }
      const endpoint = tokenEndpoint(scheme as unknown as Record<string, unknown>, credential, name, upstream.base);
      sources.set(name, clientCredentialsSource(credential, endpoint, upstream.fetch, upstream.timeoutMs));
      continue;
    }
    const basic = scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic';
    const isPair = isObject(credential);
    if (basic !== isPair) {
      throw new OpenApiError(`credentials.${name}: scheme "${name}" is ${basic ? 'HTTP basic: give { username, password }' : `${scheme.type}${scheme.scheme === undefined ? '' : ` ${scheme.scheme}`}: give the secret (a string or a function returning one)`}`);
    }
    if (scheme.type === 'apiKey' && (typeof scheme.name !== 'string' || !['header', 'query', 'cookie'].includes(scheme.in ?? ''))) {
      throw new OpenApiError(`security scheme "${name}" is an apiKey without a "name" and "in" (header, query or cookie)`, `#/components/securitySchemes/${name}`);
    }
  }
  return sources;
}

/** The headers, query pairs and cookies for one call. */
export async function applyCredentials(
  security: readonly Record<string, readonly string[]>[] | undefined,
  credentials: Record<string, OpenApiCredential>,
  schemes: Record<string, Scheme>,
  sources: TokenSources,
  signal?: AbortSignal,
): Promise<Applied> {
  const out: Applied = { headers: {}, query: [], cookies: [], tokens: [] };
  if (security === undefined) return out;
  const chosen = security.find((alternative) => Object.keys(alternative).length > 0 && Object.keys(alternative).every((name) => Object.hasOwn(credentials, name)));
  if (chosen === undefined) return out;
  for (const name of Object.keys(chosen)) {
    const scheme = schemes[name]!;
    const credential = credentials[name]!;
    const source = sources.get(name);
    if (source !== undefined) {
      const token = await source.token(signal);
      out.tokens.push({ source, token });
      out.headers['authorization'] = `Bearer ${token}`;
      continue;
    }
    if (isObject(credential) && 'password' in credential) {
      const password = await read(credential.password);
      out.headers['authorization'] = `Basic ${base64(`${credential.username}:${password}`)}`;
      continue;
    }
    const secret = await read(credential as Secret); // checkCredentials allowed only a secret here
    if (scheme.type === 'apiKey') {
      if (scheme.in === 'header') out.headers[scheme.name!.toLowerCase()] = secret;
      else if (scheme.in === 'query') out.query.push(`${encodeURIComponent(scheme.name!)}=${encodeURIComponent(secret)}`);
      else out.cookies.push(`${scheme.name!}=${encodeURIComponent(secret)}`);
    } else {
      // http bearer (or another http scheme given its full value), oauth2 and openIdConnect access tokens.
      const prefix = scheme.type === 'http' && scheme.scheme !== undefined && scheme.scheme.toLowerCase() !== 'bearer' ? scheme.scheme : 'Bearer';
      out.headers['authorization'] = `${prefix} ${secret}`;
    }
  }
  return out;
}
