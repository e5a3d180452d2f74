import { ACCOUNT_THROTTLE, CLIENT_REQUEST_LIMITS, CONNECTIONS_PER_ADDRESS, KEEP_ALIVE_MS, LIVE_STREAMS, readGatewayConfig, SESSION_LIFETIME, UPSTREAM_TIMEOUT_MS } from './config.js';

/** The secrets given, so that nothing is written under DATA_DIR. */
const base = { NODE_ENV: 'test', SESSION_KEYS: 'k'.repeat(40), INTERNAL_SECRET: 's'.repeat(40) };

describe("the gateway's settings", () => {
  it('fixes what no deployment has a reason to change, and takes the defaults of the rest', () => {
    const config = readGatewayConfig(base);
    expect(config.session).toEqual(SESSION_LIFETIME);
    expect(config.session).toEqual({ idleTimeoutMs: 7 * 24 * 3600_000, absoluteTimeoutMs: 30 * 24 * 3600_000 });
    expect(config.clients).toEqual({ ...CLIENT_REQUEST_LIMITS, maxConnections: 10_000, maxConnectionsPerAddress: CONNECTIONS_PER_ADDRESS, keepAliveTimeoutMs: KEEP_ALIVE_MS.direct });
    expect(config.upstreamTimeoutMs).toBe(UPSTREAM_TIMEOUT_MS);
    expect(config.accountThrottle).toEqual(ACCOUNT_THROTTLE);
    expect(config.events).toEqual({ ...LIVE_STREAMS, maxStreams: 5_500 });
    expect(config.authRateLimit).toEqual({ points: 20, windowSeconds: 60 });
    expect(config.signupRateLimit).toEqual({ points: 10, windowSeconds: 3600 });
    expect(config.ops).toEqual({ host: '127.0.0.1', port: 9181 });
    expect([config.usersUrl, config.todosUrl]).toEqual(['http://127.0.0.1:4001', 'http://127.0.0.1:4002']);
  });

  it('derives the signup limit from AUTH_RATE_LIMIT: half of it per hour, and 0 turns both off', () => {
    const raised = readGatewayConfig({ ...base, AUTH_RATE_LIMIT: '700' });
    expect([raised.authRateLimit.points, raised.signupRateLimit]).toEqual([700, { points: 350, windowSeconds: 3600 }]);
    const odd = readGatewayConfig({ ...base, AUTH_RATE_LIMIT: '1' });
    expect(odd.signupRateLimit.points).toBe(1);
    const off = readGatewayConfig({ ...base, AUTH_RATE_LIMIT: '0' });
    expect([off.authRateLimit.points, off.signupRateLimit.points]).toEqual([0, 0]);
  });

  it('reads TRUST_PROXY as off, one proxy (true) or a number of proxies; behind one, no per-address connection cap and longer keep-alive', () => {
    for (const value of ['', 'false', 'FALSE', '0']) {
      const direct = readGatewayConfig({ ...base, TRUST_PROXY: value });
      expect({ value, trustProxy: direct.trustProxy, perAddress: direct.clients.maxConnectionsPerAddress }).toEqual({ value, trustProxy: false, perAddress: 256 });
      expect(direct.clients.keepAliveTimeoutMs).toBe(KEEP_ALIVE_MS.direct);
    }
    for (const [value, hops] of [['true', 1], ['True', 1], ['1', 1], ['2', 2], ['10', 10]] as const) {
      const proxied = readGatewayConfig({ ...base, TRUST_PROXY: value });
      expect({ value, trustProxy: proxied.trustProxy, hops: proxied.trustProxyHops, perAddress: proxied.clients.maxConnectionsPerAddress }).toEqual({
        value,
        trustProxy: true,
        hops,
        perAddress: 0,
      });
      expect(proxied.clients.keepAliveTimeoutMs).toBe(KEEP_ALIVE_MS.behindProxy);
    }
    for (const value of ['yes', '11', '-1', '1.5']) {
      expect(() => readGatewayConfig({ ...base, TRUST_PROXY: value })).toThrow(/TRUST_PROXY: expected false, true, or the number of proxies/);
    }
  });

  it('takes the limits sized by the machine or the deployment, and refuses what is not a number', () => {
    const config = readGatewayConfig({ ...base, MAX_CONNECTIONS: '20000', EVENTS_MAX_STREAMS: '9000', OPS_PORT: '9300', HOST: '0.0.0.0' });
    expect(config.clients.maxConnections).toBe(20_000);
    expect(config.events.maxStreams).toBe(9000);
    expect(config.ops).toEqual({ host: '0.0.0.0', port: 9300 });
    expect(readGatewayConfig({ ...base, MAX_CONNECTIONS: '0' }).clients).toMatchObject({ maxConnections: 0, maxConnectionsPerAddress: 0 });
    expect(() => readGatewayConfig({ ...base, MAX_CONNECTIONS: 'many', EVENTS_MAX_STREAMS: '0' })).toThrow(/MAX_CONNECTIONS: [\s\S]*EVENTS_MAX_STREAMS: /);
  });
});
