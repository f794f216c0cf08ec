import { invalidParams } from '../wire/errors.js';
import { BOTH_ERAS } from '../wire/method-facts.js';
import { paginate } from '../wire/pagination.js';
import type { ServerScope } from '../scopes/server-scope.js';
import { requireString, type RequestMethod } from './shared.js';

// The skills extension's methods (SEP-2640, src/skills/): offered once server.skills() was called.
const hasSkills = (server: ServerScope): boolean => server.skills !== undefined;

export const listSkills: RequestMethod = {
  method: 'skills/list',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: hasSkills,
  cacheable: true,
  handle(params, ctx) {
    const skills = ctx.server.skills!;
    // An entry is one item: a skill's files are never split across pages.
    const { page, nextCursor } = paginate(skills.entries(), params['cursor'], ctx.server.results.pageSize);
    return nextCursor === undefined ? { skills: page } : { skills: page, nextCursor };
  },
};

export const getSkill: RequestMethod = {
  method: 'skills/get',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: hasSkills,
  cacheable: true,
  handle(params, ctx) {
    const uri = requireString(params, 'uri');
    const skill = ctx.server.skills!.entry(uri);
    if (skill === undefined) throw invalidParams(`Invalid params: ${JSON.stringify(uri.slice(0, 200))} is not a skill this server serves (write the URI of its SKILL.md, as skills/list lists it)`, { uri: uri.slice(0, 200) });
    return { skill };
  },
};

export const readDirectory: RequestMethod = {
  method: 'resources/directory/read',
  kind: 'request',
  eras: BOTH_ERAS,
  gate: (server) => server.skills?.directoryRead === true,
  cacheable: true,
  handle(params, ctx) {
    const uri = requireString(params, 'uri');
    const children = ctx.server.skills!.directory(uri);
    if (children === undefined) throw invalidParams(`Invalid params: ${JSON.stringify(uri.slice(0, 200))} is not a directory this server serves (directories are written without a trailing "/")`, { uri: uri.slice(0, 200) });
    const { page, nextCursor } = paginate(children, params['cursor'], ctx.server.results.pageSize);
    return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
  },
};
