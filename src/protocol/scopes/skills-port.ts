/**
 * What the skills extension (SEP-2640, src/skills/) gives the protocol: the
 * entries `skills/list` and `skills/get` answer with and the directories
 * `resources/directory/read` lists. The protocol layer knows nothing else of it.
 */
export interface SkillsPort {
  /** Grows on every change (the skills/list wire view is cached per version). */
  readonly version: number;
  /** Whether `resources/directory/read` is offered (the extension's `directoryRead`). */
  readonly directoryRead: boolean;
  /** Every skill entry, in a stable order. */
  entries(): readonly Record<string, unknown>[];
  /** The entry whose `uri` is this SKILL.md, if this server serves it. */
  entry(uri: string): Record<string, unknown> | undefined;
  /** The direct children of a directory resource; undefined when `uri` is not one. */
  directory(uri: string): readonly Record<string, unknown>[] | undefined;
}
