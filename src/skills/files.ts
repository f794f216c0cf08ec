/**
 * Reading skills at registration: a folder (walked, every path resolved with
 * realpath and kept inside the skill's folder) or files in memory, each bounded
 * in size, SKILL.md's front matter parsed and checked. Node builtins are loaded
 * when a folder is read, not when mcpkit is imported.
 */
import { RegistrationError } from '../registries/checks.js';
import { FrontmatterError, parseSkillFile, type Frontmatter } from './format/frontmatter.js';
import { frontmatterProblems } from './format/names.js';
import { SKILL_FILE } from './format/verify.js';
import { mimeTypeOf } from './mime.js';
import type { SkillFiles, SkillLimits } from './options.js';

import type * as NodeFs from 'node:fs';
import type * as NodePath from 'node:path';

type Fs = typeof NodeFs;
type Path = typeof NodePath;

export interface Node {
  fs: Fs;
  path: Path;
  sha256: (bytes: Uint8Array) => string;
}

let node: Node | undefined;
export function nodeBuiltins(): Node {
  if (node !== undefined) return node;
  const crypto = process.getBuiltinModule('node:crypto');
  node = {
    fs: process.getBuiltinModule('node:fs'),
    path: process.getBuiltinModule('node:path'),
    sha256: (bytes) => `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}`,
  };
  return node;
}

/** One file of a skill: where its bytes are (a path on disk, or in memory) and what the entry says of them. */
export interface SkillFile {
  /** Path relative to the skill's root, `/`-separated. */
  readonly rel: string;
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
  /** On disk: the path as walked (resolved again on every read), inside `root`. */
  readonly path?: string;
  readonly bytes?: Uint8Array;
}

export interface SkillDraft {
  readonly name: string;
  readonly prefix: string;
  readonly frontmatter: Frontmatter;
  readonly files: readonly SkillFile[];
  /** The skill folder's real path (folder skills): reads must stay inside it. */
  readonly root?: string;
  /** The folders to watch for changes. */
  readonly folders: readonly string[];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** SKILL.md's front matter, checked against the Agent Skills rules (and the folder's name, when there is one). */
function skillFrontmatter(bytes: Uint8Array, where: string, folderName: string | undefined): Frontmatter {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new RegistrationError(`server.skills(): ${where} is not UTF-8 text`);
  }
  let frontmatter: Frontmatter;
  try {
    frontmatter = parseSkillFile(text).frontmatter;
  } catch (error) {
    if (error instanceof FrontmatterError) throw new RegistrationError(`server.skills(): ${where}: ${error.message}`);
    throw error;
  }
  const problems = frontmatterProblems(frontmatter, folderName);
  if (problems.length > 0) throw new RegistrationError(`server.skills(): ${where}: ${problems.join('; ')}`);
  return frontmatter;
}

class Budget {
  #files = 0;
  #bytes = 0;
  constructor(
    readonly limits: SkillLimits,
    readonly where: string,
  ) {}

  add(rel: string, size: number): void {
    const { maxFileBytes, maxSkillBytes, maxFiles } = this.limits;
    if (size > maxFileBytes) throw new RegistrationError(`server.skills(): ${this.where}/${rel} is ${size} bytes; the largest file served is maxFileBytes = ${maxFileBytes}`);
    if (++this.#files > maxFiles) throw new RegistrationError(`server.skills(): ${this.where} has more than maxFiles = ${maxFiles} files`);
    this.#bytes += size;
    if (this.#bytes > maxSkillBytes) throw new RegistrationError(`server.skills(): the files of ${this.where} add up to more than maxSkillBytes = ${maxSkillBytes} bytes`);
  }
}

function fileOf(rel: string, bytes: Uint8Array, sha256: (b: Uint8Array) => string, extra: { path?: string }): SkillFile {
  let mimeType = mimeTypeOf(rel);
  if (mimeType === 'application/octet-stream' && isUtf8(bytes)) mimeType = 'text/plain';
  return { rel, size: bytes.byteLength, digest: sha256(bytes), mimeType, ...extra };
}

/** Whether `target` is `root` or inside it (both real paths). */
export function inside(root: string, target: string, path: Path): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

const MAX_DEPTH = 32;

/** One skill folder (it holds a SKILL.md): every file under it, none outside it. */
function loadSkillFolder(dir: string, prefix: string, limits: SkillLimits): SkillDraft {
  const { fs, path, sha256 } = nodeBuiltins();
  const root = fs.realpathSync(dir);
  const name = path.basename(path.resolve(dir));
  const budget = new Budget(limits, dir);
  const files: SkillFile[] = [];
  const folders: string[] = [];
  const visited = new Set<string>();
  const walk = (real: string, rel: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new RegistrationError(`server.skills(): ${dir}/${rel} is nested deeper than ${MAX_DEPTH} folders`);
    visited.add(real);
    folders.push(real);
    const entries = fs.readdirSync(real, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of entries) {
      // Dot files (.git, .DS_Store) are not part of a skill.
      if (dirent.name.startsWith('.')) continue;
      const childRel = rel === '' ? dirent.name : `${rel}/${dirent.name}`;
      const walked = path.join(real, dirent.name);
      const target = dirent.isSymbolicLink() ? fs.realpathSync(walked) : walked;
      if (!inside(root, target, path)) {
        throw new RegistrationError(`server.skills(): ${dir}/${childRel} is a link to ${target}, outside the skill folder ${root}; skills serve only their own files (copy the file in instead)`);
      }
      const stat = fs.statSync(target);
      if (stat.isDirectory()) {
        if (!visited.has(target)) walk(target, childRel, depth + 1);
        continue;
      }
      if (!stat.isFile()) continue;
      budget.add(childRel, stat.size);
      const bytes = fs.readFileSync(target);
      // Grown since the stat: refused by size like any other file.
      if (bytes.byteLength > limits.maxFileBytes) budget.add(childRel, bytes.byteLength);
      files.push(fileOf(childRel, bytes, sha256, { path: walked }));
    }
  };
  walk(root, '', 0);
  const skillMd = files.find((f) => f.rel === SKILL_FILE);
  if (skillMd === undefined) throw new RegistrationError(`server.skills(): ${dir} has no ${SKILL_FILE}`);
  const frontmatter = skillFrontmatter(fs.readFileSync(skillMd.path!), `${dir}/${SKILL_FILE}`, name);
  return { name, prefix, frontmatter, files, root, folders };
}

/**
 * A folder with a SKILL.md is one skill; otherwise each of its sub-folders that has one is.
 * Sub-folders without a SKILL.md are skipped; a folder with no skill at all is an error.
 */
export function loadFolder(folder: string, prefix: string, limits: SkillLimits): { skills: SkillDraft[]; folders: string[] } {
  const { fs, path } = nodeBuiltins();
  let stat;
  try {
    stat = fs.statSync(folder);
  } catch {
    throw new RegistrationError(`server.skills(): ${folder} does not exist (paths are relative to the working directory, ${process.cwd()})`);
  }
  if (!stat.isDirectory()) throw new RegistrationError(`server.skills(): ${folder} is not a folder`);
  if (fs.existsSync(path.join(folder, SKILL_FILE))) return { skills: [loadSkillFolder(folder, prefix, limits)], folders: [] };
  const skills: SkillDraft[] = [];
  const real = fs.realpathSync(folder);
  for (const dirent of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (dirent.name.startsWith('.')) continue;
    const child = path.join(folder, dirent.name);
    if (!fs.statSync(child).isDirectory() || !fs.existsSync(path.join(child, SKILL_FILE))) continue;
    const target = fs.realpathSync(child);
    if (!inside(real, target, path)) throw new RegistrationError(`server.skills(): ${child} is a link to ${target}, outside ${real}; register that folder itself if it should be served`);
    skills.push(loadSkillFolder(child, prefix, limits));
  }
  if (skills.length === 0) throw new RegistrationError(`server.skills(): ${folder} holds no skill (a folder with a ${SKILL_FILE}, itself or one level down)`);
  return { skills, folders: [real] };
}

/** A skill given as files in memory; its name is its front matter's `name`. */
export function loadFiles(definition: SkillFiles, prefix: string, limits: SkillLimits): SkillDraft {
  const { files } = definition;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) throw new RegistrationError('server.skills(): a skill in memory is { files: { "SKILL.md": "…", "references/GUIDE.md": "…" } }');
  const skillMd = files[SKILL_FILE];
  if (skillMd === undefined) throw new RegistrationError(`server.skills(): a skill in memory needs a "${SKILL_FILE}" file`);
  const encode = (value: string | Uint8Array, rel: string): Uint8Array => {
    if (typeof value === 'string') return new TextEncoder().encode(value);
    if (value instanceof Uint8Array) return value;
    throw new RegistrationError(`server.skills(): the content of ${JSON.stringify(rel)} must be a string or a Uint8Array`);
  };
  const frontmatter = skillFrontmatter(encode(skillMd, SKILL_FILE), `the skill's ${SKILL_FILE}`, undefined);
  const name = frontmatter['name'] as string;
  const budget = new Budget(limits, name);
  const sha256 = (bytes: Uint8Array): string => nodeBuiltins().sha256(bytes);
  const out: SkillFile[] = [];
  for (const rel of Object.keys(files).sort()) {
    const segments = rel.split('/');
    if (rel.includes('\\') || segments.some((s) => s === '' || s === '.' || s === '..')) {
      throw new RegistrationError(`server.skills(): ${JSON.stringify(rel)} is not a path inside the skill: write "/"-separated names, no "..", ".", empty segment or "\\"`);
    }
    // A copy: the caller changing its array later must not change what the digest promised.
    const bytes = encode(files[rel]!, rel).slice();
    budget.add(rel, bytes.byteLength);
    out.push({ ...fileOf(rel, bytes, sha256, {}), bytes });
  }
  return { name, prefix, frontmatter, files: out, folders: [] };
}
