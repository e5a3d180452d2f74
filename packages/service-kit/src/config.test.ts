import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BaseEnv, loadConfig, localSecrets, port, requireSecret } from './config.js';
import { LISTEN_TIMEOUT_MS, startupBounds } from './startup.js';

describe('configuration', () => {
  it('names every bad variable in one error', () => {
    const schema = BaseEnv.extend({ PORT: port(4000) });
    expect(() => loadConfig(schema, { PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL: Invalid option[\s\S]*PORT: must be a port number/);
    expect(() => loadConfig(schema, { PORT: '' })).toThrow(/PORT/);
    expect(loadConfig(schema, {}).PORT).toBe(4000);
    expect(loadConfig(z.object({ PORT: port(1) }), { PORT: '8080' }).PORT).toBe(8080);
  });

  it('bounds the start-up: STARTUP_STORE_TIMEOUT_MS in whole milliseconds from 100 to 10 minutes; binding a port within LISTEN_TIMEOUT_MS', () => {
    expect(startupBounds(loadConfig(BaseEnv, {}))).toEqual({ storeTimeoutMs: 20_000, listenTimeoutMs: LISTEN_TIMEOUT_MS });
    expect(LISTEN_TIMEOUT_MS).toBe(10_000);
    expect(startupBounds(loadConfig(BaseEnv, { STARTUP_STORE_TIMEOUT_MS: '1500' }))).toEqual({ storeTimeoutMs: 1500, listenTimeoutMs: 10_000 });
    expect(() => loadConfig(BaseEnv, { STARTUP_STORE_TIMEOUT_MS: 'soon' })).toThrow(/STARTUP_STORE_TIMEOUT_MS: /);
    expect(() => loadConfig(BaseEnv, { STARTUP_STORE_TIMEOUT_MS: '99' })).toThrow(/STARTUP_STORE_TIMEOUT_MS: Too small/);
    expect(() => loadConfig(BaseEnv, { STARTUP_STORE_TIMEOUT_MS: '600001' })).toThrow(/STARTUP_STORE_TIMEOUT_MS: Too big/);
  });

  it('creates local secrets once and shares them between processes of one data dir', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tm-config-'));
    try {
      const first = localSecrets(dir);
      const second = localSecrets(dir);
      expect(second).toEqual(first);
      expect(first.internalSecret.length).toBeGreaterThanOrEqual(32);
      expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run production without a secret, and refuses short secrets anywhere', () => {
    expect(() => requireSecret('INTERNAL_SECRET', undefined, 'production', () => 'x'.repeat(40))).toThrow(/required in production/);
    expect(() => requireSecret('INTERNAL_SECRET', 'short', 'development', () => 'x')).toThrow(/at least 32/);
    expect(requireSecret('INTERNAL_SECRET', undefined, 'development', () => 'local')).toBe('local');
  });
});
