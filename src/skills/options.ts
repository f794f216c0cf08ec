import { kindOf, RegistrationError } from '../registries/checks.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from './format/verify.js';

/** A skill in memory: its files by path relative to the skill's root (`SKILL.md`, `references/GUIDE.md`). */
export interface SkillFiles {
  files: Readonly<Record<string, string | Uint8Array>>;
  /** Segments before the skill's name in its URI: `acme/billing` → `skill://acme/billing/<name>/…`. */
  prefix?: string;
}

/** A folder that is a skill (it holds a SKILL.md) or that holds skill folders. */
export interface SkillFolder {
  folder: string;
  prefix?: string;
}

export type SkillSource = string | SkillFolder | SkillFiles;

export interface SkillsOptions {
  /** Default `prefix` of the sources of this call. */
  prefix?: string;
  /** Offer `resources/directory/read` (`directoryRead: true` in the extension's settings; default false). */
  directoryRead?: boolean;
  /** Reload a folder's skills when its files change (default false; `mcpkit dev` restarts the server anyway). */
  watch?: boolean;
  /** Largest file served (default 4 MiB). */
  maxFileBytes?: number;
  /** Most bytes of one skill's files together (default 16 MiB, SEP-2640's limit). */
  maxSkillBytes?: number;
  /** Most files in one skill (default 512, SEP-2640's limit). */
  maxFiles?: number;
}

export interface SkillLimits {
  readonly maxFileBytes: number;
  readonly maxSkillBytes: number;
  readonly maxFiles: number;
}

const OPTION_KEYS = keysOf<SkillsOptions>({ prefix: true, directoryRead: true, watch: true, maxFileBytes: true, maxSkillBytes: true, maxFiles: true });

function positive(options: SkillsOptions, key: 'maxFileBytes' | 'maxSkillBytes' | 'maxFiles', fallback: number): number {
  const value = options[key];
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RegistrationError(`server.skills(): ${key} must be a positive integer (got ${typeof value === 'number' ? value : kindOf(value)})`);
  return value;
}

/** The options, checked: an unknown key names the one meant. */
export function checkOptions(options: unknown): { options: SkillsOptions; limits: SkillLimits } {
  if (options === undefined) return checkOptions({});
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new RegistrationError(`server.skills(): options must be an object (got ${kindOf(options)})`);
  refuseUnknownKeys(options, OPTION_KEYS, 'server.skills() options', (message) => new RegistrationError(message));
  const checked = options as SkillsOptions;
  for (const key of ['directoryRead', 'watch'] as const) {
    if (checked[key] !== undefined && typeof checked[key] !== 'boolean') throw new RegistrationError(`server.skills(): ${key} must be true or false (got ${kindOf(checked[key])})`);
  }
  if (checked.prefix !== undefined) checkPrefix(checked.prefix);
  return {
    options: checked,
    limits: {
      maxFileBytes: positive(checked, 'maxFileBytes', 4 * 1024 * 1024),
      maxSkillBytes: positive(checked, 'maxSkillBytes', MAX_SKILL_BYTES),
      maxFiles: positive(checked, 'maxFiles', MAX_SKILL_FILES),
    },
  };
}

// RFC 3986 unreserved characters: the first segment is the URI's authority (a reg-name).
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** A prefix: `/`-separated segments of URI-safe characters, none `.` or `..`. */
export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string') throw new RegistrationError(`server.skills(): prefix must be a string such as "acme/billing" (got ${kindOf(prefix)})`);
  if (prefix === '') return prefix;
  for (const segment of prefix.split('/')) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new RegistrationError(`server.skills(): prefix ${JSON.stringify(prefix)} must be "/"-separated segments of letters, digits, ".", "_", "~" and "-" (no empty, "." or ".." segment, no "/" at either end)`);
    }
  }
  return prefix;
}
