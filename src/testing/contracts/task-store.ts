/**
 * The TaskStore contract (src/stores/tasks.ts) as a test suite: durable
 * create, patches, terminal tasks frozen, the count and byte quotas per owner
 * and in total (nothing evicted), expiry after ttlMs, and every call from any
 * instance on the same backend.
 */
import { deepStrictEqual, notStrictEqual, ok, rejects, strictEqual } from 'node:assert/strict';
import type { MaybePromise } from '../../stores/contracts.js';
import { TaskLimitError, type MemoryTaskStoreOptions, type TaskLimit, type TaskStore } from '../../stores/tasks.js';
import { waitFor, type ContractTestApi } from './api.js';

/** One backend with the given options; `instance()` answers the store as another process on it would hold it. */
export interface TaskStoreFixture {
  instance(): MaybePromise<TaskStore>;
  close(): MaybePromise<void>;
}

export type TaskStoreFactory = (options: MemoryTaskStoreOptions) => MaybePromise<TaskStoreFixture>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function refused(call: () => MaybePromise<unknown>, limit: TaskLimit, message: string | RegExp): Promise<void> {
  await rejects(async () => call(), (error: unknown) => {
    ok(error instanceof TaskLimitError, `expected a TaskLimitError, got ${String(error)}`);
    strictEqual(error.limit, limit);
    if (typeof message === 'string') strictEqual(error.message, message);
    else ok(message.test(error.message), error.message);
    return true;
  });
}

export function describeTaskStoreContract(name: string, factory: TaskStoreFactory, test: ContractTestApi): void {
  const using = (options: MemoryTaskStoreOptions, body: (store: TaskStore, fixture: TaskStoreFixture) => Promise<void>) => async (): Promise<void> => {
    const fixture = await factory(options);
    try {
      await body(await fixture.instance(), fixture);
    } finally {
      await fixture.close();
    }
  };

  test.describe(`TaskStore contract: ${name}`, () => {
    test.it('creates a working task bound to its owner and principal, readable at once from another instance', using({ ttlMs: 5_000, pollIntervalMs: 100 }, async (a, fixture) => {
      const b = await fixture.instance();
      const created = await a.create({ owner: 'alice', principal: 'sub:alice' });
      ok(ISO.test(created.createdAt));
      deepStrictEqual(created, { taskId: created.taskId, owner: 'alice', principal: 'sub:alice', status: 'working', createdAt: created.createdAt, lastUpdatedAt: created.createdAt, ttlMs: 5_000, pollIntervalMs: 100 });
      deepStrictEqual(await b.get(created.taskId), created);
      const anonymous = await a.create();
      strictEqual(anonymous.owner, 'anonymous');
      strictEqual('principal' in anonymous, false);
      notStrictEqual(anonymous.taskId, created.taskId);
      strictEqual(await b.get('no-such-task'), undefined);
      strictEqual(await b.update('no-such-task', { status: 'completed' }), undefined);
    }));

    test.it('applies a patch from any instance (undefined removes a field), and a finished task never changes again', using({}, async (a, fixture) => {
      const b = await fixture.instance();
      const { taskId } = await a.create({ owner: 'o' });
      const inputRequests = { elicitation_1: { method: 'elicitation/create', params: { message: 'Which city?', requestedSchema: { type: 'object', properties: {} } } } };
      const waiting = await b.update(taskId, { status: 'input_required', inputRequests, statusMessage: 'waiting ü' });
      deepStrictEqual({ status: waiting?.status, inputRequests: waiting?.inputRequests, statusMessage: waiting?.statusMessage }, { status: 'input_required', inputRequests, statusMessage: 'waiting ü' });
      ok(waiting !== undefined && ISO.test(waiting.lastUpdatedAt));
      deepStrictEqual(await a.get(taskId), waiting);
      const working = await a.update(taskId, { status: 'working', inputRequests: undefined });
      strictEqual(working?.status, 'working');
      strictEqual(working !== undefined && 'inputRequests' in working, false);
      const result = { content: [], structuredContent: { list: [], n: 0, deep: { x: [1, 'two', null, true] } }, resultType: 'complete' };
      const done = await a.update(taskId, { status: 'completed', result });
      deepStrictEqual(done?.result, result);
      // Cancellation from another instance comes too late: the record stays as it was.
      deepStrictEqual(await b.update(taskId, { status: 'cancelled' }), done);
      deepStrictEqual(await b.get(taskId), done);
    }));

    test.it('of two instances ending a task at once, exactly one wins and both answer the winner', using({}, async (a, fixture) => {
      const b = await fixture.instance();
      for (let i = 0; i < 5; i++) {
        const { taskId } = await a.create({ owner: 'o' });
        const [x, y] = await Promise.all([a.update(taskId, { status: 'completed', result: { content: [] } }), b.update(taskId, { status: 'cancelled' })]);
        const final = await a.get(taskId);
        ok(final !== undefined && (final.status === 'completed' || final.status === 'cancelled'));
        deepStrictEqual(x, final);
        deepStrictEqual(y, final);
      }
    }));

    test.it("refuses a new task over the owner's count, never evicting; other owners are not affected", using({ maxTasksPerOwner: 2 }, async (a, fixture) => {
      const b = await fixture.instance();
      const first = await a.create({ owner: 'o' });
      await b.create({ owner: 'o' });
      await refused(() => a.create({ owner: 'o' }), 'maxTasksPerOwner', 'Too many tasks: this client already has 2 tasks (the limit is 2); wait for them to finish and expire, or cancel some');
      strictEqual((await a.get(first.taskId))?.status, 'working');
      strictEqual((await b.create({ owner: 'p' })).owner, 'p');
    }));

    test.it('refuses a new task when the store holds maxTasks, whoever the owner', using({ maxTasks: 2 }, async (a) => {
      await a.create({ owner: 'o' });
      await a.create({ owner: 'p' });
      await refused(() => a.create({ owner: 'q' }), 'maxTasks', 'The task store is full; retry after some tasks expire');
    }));

    test.it("refuses a patch that makes a task too large or its owner's tasks too heavy, changing nothing", using({ maxTaskBytes: 4_000, maxBytesPerOwner: 10_000 }, async (a, fixture) => {
      const b = await fixture.instance();
      const { taskId } = await a.create({ owner: 'o' });
      const big = { content: [{ type: 'text', text: 'x'.repeat(4_000) }] };
      await refused(() => b.update(taskId, { status: 'completed', result: big }), 'maxTaskBytes', /^The task is too large to keep: 40\d\d bytes \(the limit is 4000\)$/);
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      await refused(() => b.update(taskId, { result: cyclic }), 'maxTaskBytes', 'The task could not be stored: its content cannot be serialised as JSON');
      strictEqual((await a.get(taskId))?.status, 'working');
      const fits = { content: [{ type: 'text', text: 'y'.repeat(3_500) }] };
      const second = await a.create({ owner: 'o' });
      const third = await a.create({ owner: 'o' });
      await a.update(taskId, { statusMessage: 'y'.repeat(3_500) });
      await a.update(second.taskId, { statusMessage: 'y'.repeat(3_500) });
      await refused(() => b.update(third.taskId, { status: 'completed', result: fits }), 'maxBytesPerOwner', "The task could not be stored: this client's tasks would hold more than 10000 bytes");
      strictEqual((await a.get(third.taskId))?.status, 'working');
      // A short ending always fits: it was paid for at creation.
      strictEqual((await b.update(third.taskId, { status: 'failed', error: { code: -32603, message: 'Internal error' } }))?.status, 'failed');
    }));

    test.it('forgets a finished task ttlMs after its last change, freeing its quota; an unfinished one stays', using({ ttlMs: 100, maxTasksPerOwner: 2 }, async (a, fixture) => {
      const b = await fixture.instance();
      const running = await a.create({ owner: 'o' });
      const finished = await a.create({ owner: 'o' });
      await a.update(finished.taskId, { status: 'completed', result: { content: [] } });
      await waitFor('the finished task to expire', async () => (await b.get(finished.taskId)) === undefined);
      strictEqual((await b.get(running.taskId))?.status, 'working');
      strictEqual((await b.create({ owner: 'o' })).owner, 'o');
    }));
  });
}
