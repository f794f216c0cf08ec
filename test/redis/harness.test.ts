/** The private redis-server harness the Redis store and cluster tests build on. */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCommand, REDIS_INSTALL_COMMAND, startRedis, type RedisServer } from '../support/redis.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('test/support/redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.close();
  });

  it('starts a private server on 127.0.0.1 with a unix socket and no persistence', async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(existsSync(redis.socketPath)).toBe(true);
    expect(await redis.command('PING')).toBe('+PONG\r\n');
    expect(await redis.command('CONFIG', 'GET', 'save')).toBe('*2\r\n$4\r\nsave\r\n$0\r\n\r\n');
    expect(await redis.command('CONFIG', 'GET', 'appendonly')).toBe('*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n');
  });

  it('stops by pid and comes back on the same address, empty', async () => {
    expect(await redis.command('SET', 'k', 'v')).toBe('+OK\r\n');
    const pid = redis.pid!;
    await redis.stop('SIGKILL');
    expect(redis.running).toBe(false);
    expect(alive(pid)).toBe(false);
    await expect(rawCommand(redis.port, ['PING'], 500)).rejects.toThrow();
    await redis.start();
    expect(redis.pid).not.toBe(pid);
    expect(await redis.command('GET', 'k')).toBe('$-1\r\n');
  });

  it('freezes (nothing answers, connections stay open) and thaws', async () => {
    redis.freeze();
    await expect(rawCommand(redis.port, ['PING'], 300)).rejects.toThrow(/did not answer PING within 300 ms/);
    redis.thaw();
    expect(await redis.command('PING')).toBe('+PONG\r\n');
  });

  it('close() stops the process and removes its directory', async () => {
    const other = await startRedis();
    const pid = other.pid!;
    await other.close();
    expect(alive(pid)).toBe(false);
    expect(existsSync(dirname(other.socketPath))).toBe(false);
  });

  it('fails with the command to run when redis-server is not on the PATH (never skips)', async () => {
    const saved = { path: process.env['PATH'], explicit: process.env['MCPKIT_REDIS_SERVER'] };
    process.env['PATH'] = '/nonexistent';
    delete process.env['MCPKIT_REDIS_SERVER'];
    try {
      await expect(startRedis()).rejects.toThrow(`redis-server is not on the PATH; the Redis tests need it. Install it with:\n  ${REDIS_INSTALL_COMMAND}`);
    } finally {
      process.env['PATH'] = saved.path;
      if (saved.explicit !== undefined) process.env['MCPKIT_REDIS_SERVER'] = saved.explicit;
    }
  });
});
