/**
 * The skills a server serves (SEP-2640): each file a `skill://` resource in the
 * server's resource registry, the entries `skills/list` and `skills/get` answer
 * with, and the directory tree `resources/directory/read` walks. Folder skills are
 * read from disk on every `resources/read`, resolved again and kept inside their
 * folder; with `watch`, a changed folder is loaded again and replaces its skills.
 */
import { ErrorCode, JsonRpcProtocolError } from '../jsonrpc/errors.js';
import { McpResourceNotFoundError } from '../errors/classes.js';
import type { Logger } from '../protocol/scopes/options.js';
import type { RequestContext } from '../protocol/request/context.js';
import type { SkillsPort } from '../protocol/scopes/skills-port.js';
import { RegistrationError } from '../registries/checks.js';
import type { McpResourceRegistry } from '../registries/resources.js';
import type { McpReadResult } from '../registries/types.js';
import { SKILL_FILE } from './format/verify.js';
import { inside, loadFiles, loadFolder, nodeBuiltins, type SkillDraft, type SkillFile } from './files.js';
import { unrefTimer } from '../util/timers.js';
import { checkPrefix, type SkillLimits, type SkillSource, type SkillsOptions } from './options.js';

export const DIRECTORY_MIME_TYPE = 'inode/directory';
const RELOAD_DELAY_MS = 100;

interface Source {
  readonly load: () => { skills: SkillDraft[]; folders: string[] };
  readonly limits: SkillLimits;
  skills: SkillDraft[];
  /** The folders to watch: every folder of its skills, and the folder holding them. */
  folders: string[];
  uris: string[];
  watchers: { close(): void }[];
  timer?: ReturnType<typeof setTimeout> | undefined;
}

function foldersOf(loaded: { skills: readonly SkillDraft[]; folders: readonly string[] }): string[] {
  return [...new Set([...loaded.folders, ...loaded.skills.flatMap((s) => s.folders)])];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `skill://<prefix>/<name>`, the skill's root directory. */
function rootUri(skill: SkillDraft): string {
  return `skill://${skill.prefix === '' ? '' : `${skill.prefix}/`}${skill.name}`;
}

function fileUri(skill: SkillDraft, file: SkillFile): string {
  return `${rootUri(skill)}/${file.rel.split('/').map(encodeURIComponent).join('/')}`;
}

/** The bytes of a folder skill's file, read now: still inside the skill folder, still within maxFileBytes. */
async function readFromDisk(uri: string, root: string, walked: string, maxBytes: number): Promise<Uint8Array> {
  const { fs, path } = nodeBuiltins();
  let real: string;
  try {
    real = await fs.promises.realpath(walked);
  } catch {
    throw new McpResourceNotFoundError(uri);
  }
  // A link swapped in after registration is not followed out of the folder.
  if (!inside(root, real, path)) throw new McpResourceNotFoundError(uri);
  const handle = await fs.promises.open(real, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new McpResourceNotFoundError(uri);
    const tooLarge = (): never => {
      throw new JsonRpcProtocolError(ErrorCode.InternalError, `Skill file ${uri} is now larger than maxFileBytes (${maxBytes} bytes): not served`);
    };
    if (stat.size > maxBytes) tooLarge();
    // One byte more than allowed tells a file that grew since the stat.
    const buffer = new Uint8Array(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) tooLarge();
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

export class SkillCatalog implements SkillsPort {
  readonly #resources: McpResourceRegistry<RequestContext>;
  readonly #logger: Logger | undefined;
  readonly #sources: Source[] = [];
  readonly directoryRead: boolean;
  #version = 0;
  #entries: Record<string, unknown>[] = [];
  #byUri = new Map<string, Record<string, unknown>>();
  #directories = new Map<string, Record<string, unknown>[]>();

  constructor(resources: McpResourceRegistry<RequestContext>, directoryRead: boolean, logger: Logger | undefined) {
    this.#resources = resources;
    this.directoryRead = directoryRead;
    this.#logger = logger;
  }

  get version(): number {
    return this.#version;
  }

  entries(): readonly Record<string, unknown>[] {
    return this.#entries;
  }

  entry(uri: string): Record<string, unknown> | undefined {
    return this.#byUri.get(uri);
  }

  directory(uri: string): readonly Record<string, unknown>[] | undefined {
    return this.#directories.get(uri);
  }

  /** Registers the skills of `sources` (all or none: any error leaves the catalog as it was). */
  add(sources: readonly SkillSource[], options: SkillsOptions, limits: SkillLimits): void {
    const added: Source[] = [];
    for (const source of sources) {
      const load = this.#loader(source, options, limits);
      const loaded = load();
      added.push({ load, limits, skills: loaded.skills, folders: foldersOf(loaded), uris: [], watchers: [] });
    }
    const taken = new Set(this.#sources.flatMap((s) => s.uris));
    const planned = new Set<string>();
    for (const source of added) {
      for (const skill of source.skills) {
        for (const file of skill.files) {
          const uri = fileUri(skill, file);
          if (taken.has(uri) || planned.has(uri)) throw new RegistrationError(`server.skills(): two skills would serve ${uri}: give one a prefix, or register each skill once`);
          if (this.#resources.has(uri)) throw new RegistrationError(`server.skills(): ${uri} is already a resource of this server`);
          planned.add(uri);
        }
      }
    }
    for (const source of added) {
      this.#sources.push(source);
      this.#register(source);
      if (options.watch === true) this.#watch(source);
    }
    this.#rebuild();
  }

  /** Stops watching folders. */
  close(): void {
    for (const source of this.#sources) {
      for (const watcher of source.watchers.splice(0)) watcher.close();
      if (source.timer !== undefined) clearTimeout(source.timer);
    }
  }

  #loader(source: SkillSource, options: SkillsOptions, limits: SkillLimits): Source['load'] {
    if (typeof source === 'string') return this.#loader({ folder: source }, options, limits);
    if (typeof source !== 'object' || source === null) throw new RegistrationError('server.skills(): a skill source is a folder path, { folder, prefix? } or { files, prefix? }');
    const prefix = checkPrefix(source.prefix ?? options.prefix ?? '');
    if ('folder' in source) {
      if (typeof source.folder !== 'string' || source.folder === '') throw new RegistrationError('server.skills(): folder must be a path');
      const folder = source.folder;
      return () => loadFolder(folder, prefix, limits);
    }
    if ('files' in source) {
      const skill = loadFiles(source, prefix, limits);
      return () => ({ skills: [skill], folders: [] });
    }
    throw new RegistrationError('server.skills(): a skill source is a folder path, { folder, prefix? } or { files, prefix? }');
  }

  #register(source: Source): void {
    source.uris = [];
    for (const skill of source.skills) {
      for (const file of skill.files) {
        const uri = fileUri(skill, file);
        const isSkillMd = file.rel === SKILL_FILE;
        const description = isSkillMd ? skill.frontmatter['description'] : undefined;
        this.#resources.register({
          uri,
          name: isSkillMd ? skill.name : file.rel.slice(file.rel.lastIndexOf('/') + 1),
          ...(typeof description === 'string' ? { description } : {}),
          mimeType: file.mimeType,
          size: file.size,
          read: () => this.#read(uri, skill, file, source.limits),
        });
        source.uris.push(uri);
      }
    }
  }

  async #read(uri: string, skill: SkillDraft, file: SkillFile, limits: SkillLimits): Promise<McpReadResult> {
    const bytes = file.bytes ?? (await readFromDisk(uri, skill.root!, file.path!, limits.maxFileBytes));
    try {
      return { uri, mimeType: file.mimeType, text: strictUtf8.decode(bytes) };
    } catch {
      return { uri, mimeType: file.mimeType, blob: base64(bytes) };
    }
  }

  /** Entries and directories from every source's skills, in registration order. */
  #rebuild(): void {
    const entries: Record<string, unknown>[] = [];
    const byUri = new Map<string, Record<string, unknown>>();
    const tree = new Map<string, Map<string, Record<string, unknown>>>();
    const child = (parent: string, uri: string, view: Record<string, unknown>): void => {
      let children = tree.get(parent);
      if (children === undefined) tree.set(parent, (children = new Map<string, Record<string, unknown>>()));
      if (!children.has(uri)) children.set(uri, view);
    };
    for (const skill of this.#sources.flatMap((s) => s.skills)) {
      const resources = skill.files.map((file) => ({ uri: fileUri(skill, file), digest: file.digest, size: file.size }));
      const uri = `${rootUri(skill)}/${SKILL_FILE}`;
      const entry = { uri, frontmatter: structuredClone(skill.frontmatter), resources };
      entries.push(entry);
      byUri.set(uri, entry);
      for (const file of skill.files) {
        const full = fileUri(skill, file);
        const segments = full.slice('skill://'.length).split('/');
        const view = this.#resources.get(full);
        child(`skill://${segments.slice(0, -1).join('/')}`, full, { uri: full, name: view?.name ?? file.rel, mimeType: file.mimeType, size: file.size });
        for (let i = segments.length - 1; i > 1; i--) {
          const dir = `skill://${segments.slice(0, i).join('/')}`;
          child(`skill://${segments.slice(0, i - 1).join('/')}`, dir, { uri: dir, name: decodeURIComponent(segments[i - 1]!), mimeType: DIRECTORY_MIME_TYPE });
        }
      }
    }
    const directories = new Map<string, Record<string, unknown>[]>();
    for (const [dir, children] of tree) directories.set(dir, [...children.values()].sort((a, b) => ((a['uri'] as string) < (b['uri'] as string) ? -1 : 1)));
    this.#entries = entries;
    this.#byUri = byUri;
    this.#directories = directories;
    this.#version++;
  }

  #watch(source: Source): void {
    const { fs } = nodeBuiltins();
    for (const watcher of source.watchers.splice(0)) watcher.close();
    const changed = (): void => {
      if (source.timer !== undefined) clearTimeout(source.timer);
      source.timer = unrefTimer(setTimeout(() => this.#reload(source), RELOAD_DELAY_MS));
    };
    for (const folder of source.folders) {
      try {
        const watcher = fs.watch(folder, { persistent: false }, changed);
        watcher.on('error', () => watcher.close());
        source.watchers.push(watcher);
      } catch (error) {
        this.#logger?.warn?.(`mcpkit: server.skills({ watch: true }) cannot watch ${folder}`, error);
      }
    }
  }

  /** Loads a watched source again; on failure the skills stay as they were and the reason is logged. */
  #reload(source: Source): void {
    source.timer = undefined;
    let loaded: { skills: SkillDraft[]; folders: string[] };
    try {
      loaded = source.load();
      const others = new Set(this.#sources.filter((s) => s !== source).flatMap((s) => s.uris));
      const mine = new Set(source.uris);
      for (const skill of loaded.skills) {
        for (const file of skill.files) {
          const uri = fileUri(skill, file);
          if (others.has(uri) || (!mine.has(uri) && this.#resources.has(uri))) throw new RegistrationError(`server.skills(): ${uri} is already served by another skill or resource`);
        }
      }
    } catch (error) {
      this.#logger?.error?.(`mcpkit: reloading skills failed, still serving the previous version: ${(error as Error).message}`);
      this.#watch(source);
      return;
    }
    for (const uri of source.uris) this.#resources.unregister(uri);
    source.skills = loaded.skills;
    source.folders = foldersOf(loaded);
    this.#register(source);
    this.#rebuild();
    this.#watch(source);
  }
}
