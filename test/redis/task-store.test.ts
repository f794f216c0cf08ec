/** RedisTaskStore: the task store contract on a real redis-server, the same quotas as the memory store, leases and outages. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryTaskStore, StoreUnavailableError, TaskLimitError, type TaskPatch } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis.js';
import { describeTaskStoreContract, waitFor } from '../../src/testing/index.js';
import type { RedisServer } from '../support/redis.js';
import { connectClient, freshPrefix, redisFixture, useRedis } from './support.js';

const server = useRedis();
let redis: RedisServer;
beforeAll(() => {
  redis = server();
});

describeTaskStoreContract('MemoryTaskStore', (options) => {
  const store = new MemoryTaskStore(options);
  return { instance: () => store, close: () => undefined };
}, { describe, it });

for (const resp of [2, 3] as const) {
  describeTaskStoreContract(`RedisTaskStore (RESP${resp})`, (options) => redisFixture(server, resp, (client, prefix) => new RedisTaskStore(client, { ...options, prefix }), (store) => store.close()), { describe, it });
}

describe('RedisTaskStore', () => {
  it('accepts and refuses exactly as MemoryTaskStore, with the same usage, for any sequence of creates and patches', async () => {
    const client = await connectClient(redis);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), owner: fc.constantFrom('a', 'b', 'çc'), principal: fc.option(fc.constantFrom('p1', 'p2'), { nil: undefined }) }),
      fc.record({
        kind: fc.constant('update' as const),
        task: fc.nat(12),
        status: fc.constantFrom(undefined, 'working', 'input_required', 'completed', 'failed', 'cancelled'),
        message: fc.option(fc.nat(3_000), { nil: undefined }),
        result: fc.option(fc.nat(3_000), { nil: undefined }),
        clear: fc.boolean(),
      }),
    );
    const limits = { maxTasks: 8, maxTasksPerOwner: 4, maxBytes: 16_000, maxBytesPerOwner: 9_000, maxTaskBytes: 4_000 };
    const outcome = async <T>(call: () => T | Promise<T>): Promise<T | string> => {
      try {
        return await call();
      } catch (error) {
        return error instanceof TaskLimitError ? `${error.limit}: ${error.message}` : String(error);
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const memory = new MemoryTaskStore(limits);
        const shared = new RedisTaskStore(client, { ...limits, prefix: freshPrefix() });
        const ids: [string, string][] = [];
        for (const step of ops) {
          if (step.kind === 'create') {
            const ownership = { owner: step.owner, principal: step.principal };
            const [m, r] = [await outcome(() => memory.create(ownership)), await outcome(() => shared.create(ownership))];
            expect(typeof r === 'string' ? r : 'created').toBe(typeof m === 'string' ? m : 'created');
            if (typeof m !== 'string' && typeof r !== 'string') ids.push([m.taskId, r.taskId]);
            continue;
          }
          const pair = ids[step.task % Math.max(1, ids.length)];
          if (pair === undefined) continue;
          const patch: TaskPatch = {
            ...(step.status !== undefined && { status: step.status }),
            ...(step.message !== undefined && { statusMessage: 'm'.repeat(step.message) }),
            ...(step.result !== undefined && { result: { content: [{ type: 'text', text: 'r'.repeat(step.result) }] } }),
            ...(step.clear && { statusMessage: undefined }),
          };
          const m = await outcome(() => memory.update(pair[0], patch));
          const r = await outcome(() => shared.update(pair[1], patch));
          if (typeof m === 'string' || typeof r === 'string' || m === undefined || r === undefined) expect(r).toEqual(m);
          else expect({ ...r, taskId: m.taskId, createdAt: m.createdAt, lastUpdatedAt: m.lastUpdatedAt }).toEqual(m);
        }
        expect(await shared.usage('a')).toEqual({ count: memory.size, bytes: memory.bytes, ownerCount: memory.usage('a').count, ownerBytes: memory.usage('a').bytes });
        shared.close();
      }),
      { numRuns: 30 },
    );
  });

  it("a task whose instance stops renewing fails once its lease runs out, seen from another instance; a renewed one keeps working", async () => {
    const prefix = freshPrefix();
    const a = new RedisTaskStore(await connectClient(redis), { prefix, leaseMs: 400, renewEveryMs: 50, instanceId: 'instance-a' });
    const b = new RedisTaskStore(await connectClient(redis), { prefix, leaseMs: 400, renewEveryMs: 50, instanceId: 'instance-b' });
    const orphan = await a.create({ owner: 'o', principal: 'p' });
    const kept = await b.create({ owner: 'o' });
    expect(await b.holderOf(orphan.taskId)).toBe('instance-a');
    expect(await a.holderOf(kept.taskId)).toBe('instance-b');
    a.close(); // instance A dies: nobody renews its task any more
    await waitFor('the orphaned task to fail', async () => (await b.get(orphan.taskId))?.status === 'failed');
    const failed = await b.get(orphan.taskId);
    expect(failed?.error).toEqual({ code: -32603, message: 'The task failed: the server instance running it stopped (its lease of 400 ms ran out)' });
    expect(failed?.statusMessage).toBe('The task failed: the server instance running it stopped (its lease of 400 ms ran out)');
    expect(failed?.principal).toBe('p');
    // B renewed its own task all along.
    expect((await a.get(kept.taskId))?.status).toBe('working');
    // A failed task stays failed, and its owner's quota counts it until it expires.
    expect(await a.update(orphan.taskId, { status: 'completed', result: { content: [] } })).toEqual(failed);
    expect((await b.usage('o')).ownerCount).toBe(2);
    b.close();
  });

  it('stops renewing a task finished on another instance', async () => {
    const prefix = freshPrefix();
    const a = new RedisTaskStore(await connectClient(redis), { prefix, leaseMs: 1_000, renewEveryMs: 100 });
    const b = new RedisTaskStore(await connectClient(redis), { prefix });
    const task = await a.create({ owner: 'o' });
    await b.update(task.taskId, { status: 'cancelled' });
    await a.renew();
    expect((await a.get(task.taskId))?.status).toBe('cancelled');
    a.close();
  });

  it('Redis killed mid-test: calls reject with StoreUnavailableError (nothing hangs, nothing crashes), then work again', async () => {
    const errors: unknown[] = [];
    const store = new RedisTaskStore(await connectClient(redis), { prefix: freshPrefix(), renewEveryMs: 20, leaseMs: 1_000, onError: (error) => errors.push(error) });
    const task = await store.create({ owner: 'o' });
    await redis.stop('SIGKILL');
    await expect(store.create({ owner: 'o' })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.get(task.taskId)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.update(task.taskId, { status: 'completed' })).rejects.toThrow(/^Shared state is unavailable: Redis /);
    // Renewals fail in the background and are reported, not thrown.
    await waitFor('a failed renewal to be reported', () => errors.some((error) => error instanceof StoreUnavailableError));
    await redis.start();
    await waitFor('creates to succeed again', async () => store.create({ owner: 'o' }).then(() => true, () => false), 10_000);
    // The old server's tasks went with it (no persistence in the tests).
    expect(await store.get(task.taskId)).toBeUndefined();
    store.close();
  });
});
