import Router from '@koa/router';
import { once } from 'node:events';
import Koa from 'koa';
import { errorHandler } from './error-handler.middleware.js';
import { IDENTITY_HEADERS, requireSignedIdentity, signIdentity } from './identity.js';
import { createLogger } from './logger.js';

// test-support builds on this package, so these tests start their server by hand.
const TEST_SECRET = 'identity-test-secret-0123456789abcdef0123456789';

async function listen(app: Koa) {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function echoApp() {
  const app = new Koa();
  const logger = createLogger('test');
  app.use(async (ctx, next) => {
    ctx.log = logger;
    await next();
  });
  app.use(errorHandler());
  app.use(requireSignedIdentity({ secret: TEST_SECRET, publicPaths: ['/healthz'] }));
  const router = new Router();
  router.all('/{*rest}', (ctx) => {
    ctx.body = { userId: ctx.state.userId ?? null };
  });
  app.use(router.routes());
  return listen(app);
}

const request = { method: 'GET', url: '/todo/fetch-todo', userId: '0123456789abcdef01234567', requestId: 'req-0001' };

function call(url: string, headers: Record<string, string>, path = request.url, method = 'GET') {
  return fetch(url + path, { method, headers: { 'x-request-id': request.requestId, ...headers } });
}

describe('signed identity between gateway and services', () => {
  let server: Awaited<ReturnType<typeof echoApp>>;
  beforeAll(async () => {
    server = await echoApp();
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts a fresh signature and exposes the vouched user id', async () => {
    const response = await call(server.url, signIdentity(TEST_SECRET, request));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ userId: request.userId });
  });

  it.each([
    ['unsigned', () => ({})],
    ['signed with another secret', () => signIdentity('another-secret-0123456789abcdef0123456789', request)],
    ['stale (31 s old)', () => signIdentity(TEST_SECRET, request, Date.now() - 31_000)],
    ['from the future (31 s ahead)', () => signIdentity(TEST_SECRET, request, Date.now() + 31_000)],
    ['user id swapped after signing', () => ({ ...signIdentity(TEST_SECRET, request), [IDENTITY_HEADERS.userId]: 'ffffffffffffffffffffffff' })],
  ])('refuses a request %s with 401', async (_label, headers) => {
    const response = await call(server.url, headers());
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Request was not signed by the gateway', code: 'AUTH.BAD_INTERNAL_SIGNATURE' });
  });

  it('binds the signature to method and path', async () => {
    const headers = signIdentity(TEST_SECRET, request);
    expect((await call(server.url, headers, '/todo/delete-todo/0123456789abcdef01234567')).status).toBe(401);
    expect((await call(server.url, headers, request.url, 'DELETE')).status).toBe(401);
  });

  it('lets public paths through without a signature', async () => {
    expect((await call(server.url, {}, '/healthz')).status).toBe(200);
  });
});
