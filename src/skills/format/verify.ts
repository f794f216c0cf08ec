/**
 * The client half of SEP-2640, without a transport: check the entry a server
 * declared (`skills/list`, `skills/get`), then verify each file read against it
 * (size, digest and, for SKILL.md, the front matter) before anyone uses the bytes.
 * `fetchSkill` reads SKILL.md when called and each supporting file when asked for,
 * never before: nothing is prefetched.
 */
import { DIGEST_FORMAT, sha256Digest } from './digest.js';
import { FrontmatterError, parseSkillFile, type Frontmatter } from './frontmatter.js';
import { frontmatterProblems } from './names.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_FILE = 'SKILL.md';
/** SEP-2640's limits a server SHOULD stay within: files per skill and their total bytes. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** One file of a skill, as its entry lists it. */
export interface SkillFileEntry {
  uri: string;
  /** `sha256:{64 lowercase hex}` of the file's raw bytes. */
  digest: string;
  /** The file's length in bytes. */
  size: number;
}

/** A `skills/list` entry or the `skill` of `skills/get`. */
export interface SkillEntry {
  /** The skill's SKILL.md. */
  uri: string;
  /** SKILL.md's front matter as JSON. */
  frontmatter: Frontmatter;
  /** Every file of the skill; `"dynamic"` (or absent) for generated skills, which have no digests. */
  resources?: SkillFileEntry[] | 'dynamic';
}

/** What failed: the entry itself, a file it does not list, or a file that is not what it promised. */
export type SkillVerificationFailure = 'entry' | 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'content';

export class SkillVerificationError extends Error {
  override readonly name = 'SkillVerificationError';
  constructor(
    readonly reason: SkillVerificationFailure,
    readonly uri: string,
    message: string,
  ) {
    super(message);
  }
}

export interface EntryLimits {
  /** Most files an entry may list (default 512). */
  maxFiles?: number;
  /** Most bytes an entry's files may add up to (default 16 MiB). */
  maxBytes?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The skill's root, `skill://<skill-path>`: its SKILL.md URI without `/SKILL.md`. */
export function skillRoot(uri: string): string | undefined {
  return uri.endsWith(`/${SKILL_FILE}`) && uri.includes('://') ? uri.slice(0, -(SKILL_FILE.length + 1)) : undefined;
}

/**
 * Checks an entry a server sent (it may be hostile): the shape, the name rules, every
 * listed file inside the skill, once, with a well-formed digest and size, within the limits.
 * Returns it typed; throws SkillVerificationError (`reason: 'entry'`) naming what is wrong.
 */
export function checkSkillEntry(value: unknown, limits: EntryLimits = {}): SkillEntry {
  const fail = (uri: string, why: string): never => {
    throw new SkillVerificationError('entry', uri, `The skill entry ${uri === '' ? '' : `${uri} `}is malformed: ${why}`);
  };
  if (!isObject(value)) return fail('', 'it is not an object');
  const uri = value['uri'];
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 8192) return fail('', '"uri" must be a URI string');
  const root = skillRoot(uri);
  if (root === undefined) return fail(uri, `"uri" must name the skill's ${SKILL_FILE} (…/${SKILL_FILE})`);
  const frontmatter = value['frontmatter'];
  if (!isObject(frontmatter)) return fail(uri, '"frontmatter" must be an object');
  const problems = frontmatterProblems(frontmatter as Frontmatter, root.slice(root.lastIndexOf('/') + 1));
  if (problems.length > 0) return fail(uri, problems.join('; '));
  const resources = value['resources'];
  if (resources === undefined || resources === 'dynamic') return { uri, frontmatter: frontmatter as Frontmatter, resources: 'dynamic' };
  if (!Array.isArray(resources)) return fail(uri, '"resources" must be an array of { uri, digest, size } or "dynamic"');
  const maxFiles = limits.maxFiles ?? MAX_SKILL_FILES;
  const maxBytes = limits.maxBytes ?? MAX_SKILL_BYTES;
  if (resources.length > maxFiles) return fail(uri, `it lists ${resources.length} files; the limit is ${maxFiles}`);
  const seen = new Set<string>();
  let total = 0;
  const files: SkillFileEntry[] = [];
  for (const [i, item] of resources.entries()) {
    if (!isObject(item)) return fail(uri, `resources[${i}] is not an object`);
    const { uri: fileUri, digest, size } = item;
    if (typeof fileUri !== 'string' || (fileUri !== uri && !fileUri.startsWith(`${root}/`))) return fail(uri, `resources[${i}].uri ${JSON.stringify(fileUri)} is not a file of the skill (${root}/…)`);
    if (fileUri.slice(root.length + 1).split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return fail(uri, `resources[${i}].uri ${JSON.stringify(fileUri)} has an empty, "." or ".." segment`);
    if (seen.has(fileUri)) return fail(uri, `${fileUri} is listed twice`);
    seen.add(fileUri);
    if (typeof digest !== 'string' || !DIGEST_FORMAT.test(digest)) return fail(uri, `the digest of ${fileUri} is not sha256:{64 lowercase hex}`);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return fail(uri, `the size of ${fileUri} is not a byte count`);
    total += size;
    if (total > maxBytes) return fail(uri, `its files add up to more than ${maxBytes} bytes`);
    files.push({ uri: fileUri, digest, size });
  }
  if (!seen.has(uri)) return fail(uri, `"resources" does not list ${SKILL_FILE} itself`);
  return { uri, frontmatter: frontmatter as Frontmatter, resources: files };
}

/** JSON equality, key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** The fields where SKILL.md's front matter and the entry's differ (empty: none). */
export function frontmatterDifferences(file: Frontmatter, entry: Frontmatter): string[] {
  const keys = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...keys].filter((key) => !sameJson(file[key] ?? null, entry[key] ?? null));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Verifies one file read for `entry`: listed, the declared size, the declared digest and,
 * for SKILL.md, front matter equal field by field to the entry's. Returns the bytes;
 * throws SkillVerificationError otherwise. A `"dynamic"` entry has no digests to check.
 */
export async function verifySkillFile(entry: SkillEntry, uri: string, content: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  if (Array.isArray(entry.resources)) {
    const listed = entry.resources.find((file) => file.uri === uri);
    if (listed === undefined) throw new SkillVerificationError('unlisted', uri, `${uri} is not one of the files the skill's entry lists: refusing it (the skill may have changed; fetch its entry again with skills/get)`);
    if (bytes.byteLength !== listed.size) {
      throw new SkillVerificationError('size', uri, `${uri} is ${bytes.byteLength} bytes but its entry says ${listed.size}: the content is not what the server listed (stale, corrupted or tampered with); fetch the entry again with skills/get`);
    }
    const digest = await sha256Digest(bytes);
    if (digest !== listed.digest) {
      throw new SkillVerificationError('digest', uri, `${uri} has digest ${digest} but its entry says ${listed.digest}: the content is not what the server listed (stale, corrupted or tampered with); fetch the entry again with skills/get`);
    }
  }
  if (uri === entry.uri) {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      throw new SkillVerificationError('content', uri, `${uri} is not UTF-8 text`);
    }
    let frontmatter: Frontmatter;
    try {
      frontmatter = parseSkillFile(text).frontmatter;
    } catch (error) {
      const why = error instanceof FrontmatterError ? error.message : String(error);
      throw new SkillVerificationError('frontmatter', uri, `${uri}: its front matter cannot be read (${why})`);
    }
    const differences = frontmatterDifferences(frontmatter, entry.frontmatter);
    if (differences.length > 0) {
      throw new SkillVerificationError('frontmatter', uri, `${uri}: the front matter differs from the skill's entry in ${differences.map((key) => JSON.stringify(key)).join(', ')}: not loading the skill`);
    }
  }
  return bytes;
}

/** The bytes of one resource read: raw bytes or text, or a `resources/read` result. */
export type SkillReadResult = Uint8Array | string | { readonly contents: readonly object[] };
/** Reads one resource (e.g. a client's `resources/read`); called only when a file is needed. */
export type SkillReader = (uri: string) => SkillReadResult | Promise<SkillReadResult>;

function bytesOf(uri: string, result: SkillReadResult): Uint8Array {
  if (typeof result === 'string' || result instanceof Uint8Array) return typeof result === 'string' ? new TextEncoder().encode(result) : result;
  const contents: readonly unknown[] | undefined = isObject(result) && Array.isArray(result['contents']) ? (result['contents'] as unknown[]) : undefined;
  const item: unknown = contents?.find((c) => isObject(c) && c['uri'] === uri) ?? (contents?.length === 1 ? contents[0] : undefined);
  if (!isObject(item)) throw new SkillVerificationError('content', uri, `reading ${uri} returned no contents for it`);
  if (typeof item['text'] === 'string') return new TextEncoder().encode(item['text']);
  if (typeof item['blob'] === 'string') {
    try {
      return Uint8Array.from(atob(item['blob']), (c) => c.charCodeAt(0));
    } catch {
      throw new SkillVerificationError('content', uri, `reading ${uri} returned a blob that is not base64`);
    }
  }
  throw new SkillVerificationError('content', uri, `reading ${uri} returned neither text nor blob`);
}

export interface FetchSkillOptions extends EntryLimits {
  /** Load a `"dynamic"` entry, whose files carry no digests (default false: SkillVerificationError). */
  allowUnverified?: boolean;
}

/** A loaded skill: its verified SKILL.md, and its other files read (and verified) on demand. */
export interface LoadedSkill {
  readonly entry: SkillEntry;
  /** `skill://<skill-path>`, against which relative references resolve. */
  readonly root: string;
  readonly name: string;
  readonly frontmatter: Frontmatter;
  /** SKILL.md after its front matter. */
  readonly body: string;
  /** A file of the skill by path relative to its root (`references/GUIDE.md`) or by URI: read now, verified. */
  readFile(path: string): Promise<Uint8Array>;
  /** `readFile` decoded as UTF-8. */
  readText(path: string): Promise<string>;
}

/**
 * Loads a skill: checks `entry` (any value a server sent), reads SKILL.md through `read`
 * and verifies it. Supporting files are read only when `readFile` asks for them,
 * and a file the entry does not list is refused without being read.
 */
export async function fetchSkill(read: SkillReader, entryValue: unknown, options: FetchSkillOptions = {}): Promise<LoadedSkill> {
  const entry = checkSkillEntry(entryValue, options);
  if (!Array.isArray(entry.resources) && options.allowUnverified !== true) {
    throw new SkillVerificationError('entry', entry.uri, `${entry.uri} is a dynamic skill: its entry lists no files or digests, so nothing read from it can be verified (pass allowUnverified: true to load it anyway)`);
  }
  const root = skillRoot(entry.uri)!;
  const readVerified = async (uri: string): Promise<Uint8Array> => verifySkillFile(entry, uri, bytesOf(uri, await read(uri)));
  const skillText = strictUtf8.decode(await readVerified(entry.uri));
  const { body } = parseSkillFile(skillText);
  const resolve = (path: string): string => {
    if (typeof path !== 'string' || path.length === 0) throw new TypeError('readFile(path): path must be a non-empty string');
    if (path.includes('://')) return path;
    const segments = path.replace(/^\.\//, '').split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..')) {
      throw new SkillVerificationError('unlisted', `${root}/${path}`, `${JSON.stringify(path)} leaves the skill or has an empty segment: write a path inside ${root}`);
    }
    return `${root}/${segments.join('/')}`;
  };
  const readFile = async (path: string): Promise<Uint8Array> => {
    const uri = resolve(path);
    if (Array.isArray(entry.resources) ? !entry.resources.some((f) => f.uri === uri) : !uri.startsWith(`${root}/`)) {
      throw new SkillVerificationError('unlisted', uri, `${uri} is not one of the files of ${entry.uri}: not reading it`);
    }
    return readVerified(uri);
  };
  return {
    entry,
    root,
    name: entry.frontmatter['name'] as string,
    frontmatter: entry.frontmatter,
    body,
    readFile,
    readText: async (path) => {
      const uri = resolve(path);
      try {
        return strictUtf8.decode(await readFile(path));
      } catch (error) {
        if (error instanceof TypeError) throw new SkillVerificationError('content', uri, `${uri} is not UTF-8 text`);
        throw error;
      }
    },
  };
}
