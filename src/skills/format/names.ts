/**
 * The Agent Skills rules SEP-2640 applies to skill names and front matter fields
 * (https://agentskills.io/specification): checked by the server when a skill is
 * registered and by a client before it trusts an entry.
 */
import type { Frontmatter } from './frontmatter.js';

/** 1-64 characters of a-z, 0-9 and "-", not starting or ending with "-", no "--". */
const NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Why `name` is not a valid skill name, or undefined when it is. */
export function skillNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'the name must be a non-empty string';
  if (name.length > 64) return `the name is ${name.length} characters long; the most is 64`;
  if (NAME.test(name)) return undefined;
  if (/[A-Z]/.test(name)) return `${JSON.stringify(name)} has upper-case letters; skill names are lower case (${JSON.stringify(name.toLowerCase())})`;
  if (name.startsWith('-') || name.endsWith('-')) return `${JSON.stringify(name)} starts or ends with "-"`;
  if (name.includes('--')) return `${JSON.stringify(name)} has "--"; use single hyphens`;
  return `${JSON.stringify(name)} may only hold a-z, 0-9 and "-"`;
}

export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** The problems of a SKILL.md's front matter (empty: none); `folderName`, when known, must equal `name`. */
export function frontmatterProblems(frontmatter: Frontmatter, folderName?: string): string[] {
  const problems: string[] = [];
  const { name, description, license, compatibility, metadata } = frontmatter;
  const nameProblem = name === undefined ? 'the "name" field is missing' : skillNameProblem(name);
  if (nameProblem !== undefined) problems.push(nameProblem);
  else if (folderName !== undefined && name !== folderName) problems.push(`"name" is ${JSON.stringify(name)} but the skill's folder is ${JSON.stringify(folderName)}: they must be equal`);
  if (description === undefined) problems.push('the "description" field is missing');
  else if (typeof description !== 'string' || description.trim() === '') problems.push('"description" must be non-empty text');
  else if (description.length > MAX_DESCRIPTION_LENGTH) problems.push(`"description" is ${description.length} characters long; the most is ${MAX_DESCRIPTION_LENGTH}`);
  if (license !== undefined && typeof license !== 'string') problems.push('"license" must be text');
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > MAX_COMPATIBILITY_LENGTH)) {
    problems.push(`"compatibility" must be text of at most ${MAX_COMPATIBILITY_LENGTH} characters`);
  }
  if (metadata !== undefined) {
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) problems.push('"metadata" must be a mapping of names to text');
    else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== 'string') problems.push(`"metadata.${key}" must be text (write it in quotes: ${key}: "${String(JSON.stringify(value))}")`);
      }
    }
  }
  return problems;
}
