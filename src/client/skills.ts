/**
 * The client half of the skills extension (SEP-2640): list skills, and fetch one lazily —
 * SKILL.md when asked, each other file when read — with every entry checked (a server may be
 * hostile) and every file verified against the entry's size, digest and front matter before
 * the caller sees a byte. Nothing is read ahead of need.
 */
import { ErrorCode } from '../jsonrpc/errors.js';
import { checkSkillEntry, fetchSkill, skillRoot, SkillVerificationError, type EntryLimits, type FetchSkillOptions, type LoadedSkill, type SkillEntry } from '../skills/format/verify.js';
import { McpError } from './errors.js';
import { allPages } from './lists.js';
import type { Json, ListOptions, RequestOptions } from './options.js';
import type { McpResult, ReadResourceResult } from '../wire-types/index.js';

export interface ListSkillsResult extends McpResult {
  /** The entries that passed `checkSkillEntry`; a malformed one is left out with a warning. */
  skills: SkillEntry[];
  nextCursor?: string;
}

export interface SkillListOptions extends ListOptions, EntryLimits {}

export interface SkillFetchOptions extends FetchSkillOptions, RequestOptions {}

/** What the skills need of the client. */
export interface SkillsHost {
  request(method: string, params?: Json, options?: RequestOptions): Promise<McpResult>;
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult>;
  warn(message: string): void;
}

export class ClientSkills {
  constructor(private readonly host: SkillsHost) {}

  /** One page of `skills/list`. */
  async list(options: SkillListOptions = {}): Promise<ListSkillsResult> {
    const { cursor, maxFiles, maxBytes, ...request } = options;
    const page = await this.host.request('skills/list', cursor === undefined ? {} : { cursor }, request);
    const skills: SkillEntry[] = [];
    for (const item of Array.isArray(page['skills']) ? (page['skills'] as unknown[]) : []) {
      try {
        skills.push(checkSkillEntry(item, { ...(maxFiles === undefined ? {} : { maxFiles }), ...(maxBytes === undefined ? {} : { maxBytes }) }));
      } catch (error) {
        if (!(error instanceof SkillVerificationError)) throw error;
        this.host.warn(`skills/list: ${error.message}; the skill is left out`);
      }
    }
    return { ...page, skills };
  }

  /** Every skill, across pages. */
  all(options: Omit<SkillListOptions, 'cursor'> = {}): AsyncGenerator<SkillEntry> {
    return allPages<SkillEntry>((cursor) => this.list({ ...options, ...(cursor === undefined ? {} : { cursor }) }), 'skills');
  }

  /** `skills/get`: the current entry of the skill whose SKILL.md is `uri`, checked. */
  async get(uri: string, options: SkillListOptions = {}): Promise<SkillEntry> {
    const { maxFiles, maxBytes, ...request } = options;
    const result = await this.host.request('skills/get', { uri }, request);
    return checkSkillEntry(result['skill'], { ...(maxFiles === undefined ? {} : { maxFiles }), ...(maxBytes === undefined ? {} : { maxBytes }) });
  }

  /**
   * Loads a skill: an entry from `list`, a SKILL.md URI (asked with `skills/get`) or a name (found
   * in `skills/list`). Reads and verifies SKILL.md now; `readFile`/`readText` read each other
   * file, verified, when called. Throws `SkillVerificationError` when anything does not match.
   */
  async fetch(skill: SkillEntry | string, options: SkillFetchOptions = {}): Promise<LoadedSkill> {
    const { maxFiles, maxBytes, allowUnverified, ...request } = options;
    const limits: EntryLimits = { ...(maxFiles === undefined ? {} : { maxFiles }), ...(maxBytes === undefined ? {} : { maxBytes }) };
    let entry: unknown = skill;
    if (typeof skill === 'string') entry = skillRoot(skill) === undefined ? await this.#byName(skill, { ...request, ...limits }) : await this.get(skill, { ...request, ...limits });
    const read = (uri: string): Promise<ReadResourceResult> => this.host.readResource(uri, request);
    return fetchSkill(read, entry, { ...limits, ...(allowUnverified === undefined ? {} : { allowUnverified }) });
  }

  async #byName(name: string, options: SkillListOptions): Promise<SkillEntry> {
    for await (const entry of this.all(options)) if (entry.frontmatter['name'] === name) return entry;
    throw new McpError('skills/list', ErrorCode.InvalidParams, `The server lists no skill named ${JSON.stringify(name.slice(0, 200))} (pass a name from skills.list() or the URI of its SKILL.md)`);
  }
}
