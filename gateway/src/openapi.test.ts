import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { API, type TodoResponse, type UserResponse } from '@tm/contracts';
import { openApiPath, type OpenApiDocument } from '@tm/contracts/openapi';
import { createLogger } from '@tm/service-kit';
import { ApiClient, newUser, openRawEventStream, REPO_ROOT, type RunningStack, startStack, tempDir } from '@tm/test-support';
import { createApp } from './app.js';
import { SqliteSessionStore } from './sqlite-session.store.js';
import { inProcessGateway, type TestGateway, testGatewayConfig } from './gateway.test-helpers.js';

/**
 * GET /api/openapi.json (docs/PRODUCT.md §10.11.7): a valid OpenAPI 3.1 document that names every route the
 * gateway answers under /api, and every route it names answers.
 */

let stack: RunningStack<TestGateway>;
let doc: OpenApiDocument;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
  doc = (await (await fetch(`${stack.gateway.url}/api/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(async () => {
  await stack.stop();
});

const METHODS = ['get', 'post', 'put', 'delete'] as const;

/** Every (METHOD, /api path) the document names, paths written as the router writes them (`:todoId`). */
function documented(): Set<string> {
  const routes = new Set<string>();
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) routes.add(`${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`);
  }
  return routes;
}

/**
 * Validates with @seriousme/openapi-schema-validator (the OpenAPI Initiative's JSON Schemas for 3.1, with
 * every `$ref` resolved). It is ESM only, so it runs in a child Node process rather than in jest's module system.
 */
function validate(document: unknown): Promise<{ valid: boolean; version: string; errors?: unknown }> {
  const script = [
    "import { Validator } from '@seriousme/openapi-schema-validator';",
    "let text = ''; for await (const chunk of process.stdin) text += chunk;",
    'const validator = new Validator();',
    'const result = await validator.validate(JSON.parse(text));',
    'process.stdout.write(JSON.stringify({ ...result, version: validator.version }));',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(REPO_ROOT, 'gateway') }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as { valid: boolean; version: string }),
    );
    child.stdin?.end(JSON.stringify(document));
  });
}

describe('GET /api/openapi.json', () => {
  it('is public, cacheable JSON: no session needed, no cookie set, revalidated by its ETag', async () => {
    const answer = await fetch(`${stack.gateway.url}/api/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = answer.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    // (fetch adds `Cache-Control: no-cache` to a conditional request unless told otherwise; a browser revalidating sends max-age=0.)
    const again = await fetch(`${stack.gateway.url}/api/openapi.json`, { headers: { 'if-none-match': etag ?? '', 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await fetch(`${stack.gateway.url}/api/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('is a valid OpenAPI 3.1 document (checked with a maintained validator, every $ref resolved)', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    const result = await validate(doc);
    expect(result).toEqual({ valid: true, version: '3.1' });
    const broken = structuredClone(doc);
    (broken.paths['/api/user/me']?.get?.responses['200'] as Record<string, unknown>).content = { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } };
    expect((await validate(broken)).valid).toBe(false);
  });

  it('describes every entry of the API table: method, path, parameters, body, success status, error body', () => {
    for (const [name, endpoint] of Object.entries(API)) {
      const operation = doc.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation).toBeDefined();
      if (!operation) continue;
      expect(operation.operationId).toBe(name);
      const names = (operation.parameters ?? []).map((parameter) => `${String(parameter.in)}:${String(parameter.name)}`);
      if (endpoint.path.includes(':todoId')) expect(names).toContain('path:todoId');
      else expect(names).not.toContain('path:todoId');
      const body = operation.requestBody as { content: Record<string, { schema: { $ref: string } }> } | undefined;
      if ('request' in endpoint) expect(body?.content['application/json']?.schema.$ref).toMatch(/^#\/components\/schemas\/\w+$/);
      else expect(body).toBeUndefined();
      const success = operation.responses[String(endpoint.status)] as { content: Record<string, unknown> };
      const stream = 'stream' in endpoint && endpoint.stream;
      expect(Object.keys(success.content)).toEqual([stream ? 'text/event-stream' : 'application/json']);
      for (const range of ['4XX', '5XX']) expect(operation.responses[range]).toBeDefined();
    }
    for (const response of Object.values(doc.components.responses)) {
      expect(response).toEqual(expect.objectContaining({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } }));
    }
    const events = doc.paths['/api/todo/events']?.get;
    expect((events?.parameters ?? []).map((parameter) => parameter.name)).toEqual(['after', 'Last-Event-ID']);
    expect(Object.keys(events?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '429', '503']));
    expect(doc.components.schemas.TodoChangeEvent).toBeDefined();
    expect(doc.components.schemas.ErrorBody).toEqual(expect.objectContaining({ required: ['message'] }));
  });

  it('names every route the gateway answers under /api: its own, and those of the services it forwards to', () => {
    const named = documented();
    // The gateway's own routes, read from the routers the app really mounts.
    const sessionStore = SqliteSessionStore.open(tempDir('tm-openapi-').dir);
    const gateway = createApp({
      config: testGatewayConfig({ usersUrl: 'http://127.0.0.1:9', todosUrl: 'http://127.0.0.1:9' }),
      sessionStore,
      logger: createLogger('openapi-test', 'silent'),
    });
    const own = new Set<string>();
    for (const middleware of gateway.app.middleware) {
      const router = (middleware as { router?: Router }).router;
      for (const layer of router?.stack ?? []) {
        const route = String(layer.path);
        if (!route.startsWith('/api/') || route.includes('{*rest}') || layer.methods.length === 0) continue;
        for (const method of layer.methods) if (method !== 'HEAD') own.add(`${method} ${route}`);
      }
    }
    gateway.close();
    void sessionStore.close();
    expect(own.size).toBeGreaterThanOrEqual(8);
    for (const route of own) expect(named).toContain(route);

    // Everything else under /api/user and /api/todo is forwarded: the services' public routes, read from their sources.
    const forwarded = new Set<string>();
    for (const file of ['svc-users/src/users.routes.ts', 'svc-todos/src/todos.routes.ts']) {
      let prefix = '';
      for (const match of readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/apiRouter\((?:'([^']*)')?\)|\brouter\.(get|post|put|delete|patch|all)\(\s*'([^']+)'/g)) {
        if (match[0].startsWith('apiRouter')) prefix = match[1] ?? '';
        else forwarded.add(`${match[2]?.toUpperCase()} ${prefix}${match[3]}`);
      }
    }
    const reachable = [...forwarded].filter((route) => /^\w+ \/(user|todo)\//.test(route));
    expect(reachable.length).toBeGreaterThanOrEqual(12);
    for (const route of reachable) expect(named).toContain(route.replace(' /', ' /api/'));
  });

  it('answers 404/405 for every method the document does not name on its paths, and for paths it does not name', async () => {
    const client = new ApiClient(stack.gateway.url);
    await client.get('/api/user/me');
    expect((await client.post('/api/user/signup', newUser())).status).toBe(201);
    const named = documented();
    for (const route of Object.keys(doc.paths)) {
      const concrete = route.replace('{todoId}', 'a'.repeat(24));
      for (const method of METHODS) {
        if (named.has(`${method.toUpperCase()} ${route.replace('{todoId}', ':todoId')}`)) continue;
        const answer = await client.request(method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? {} : { body: {} });
        expect([`${method} ${route}`, answer.status]).toEqual([`${method} ${route}`, expect.any(Number)]);
        expect([404, 405]).toContain(answer.status);
      }
    }
    for (const unknown of ['/api/todo/events/x', '/api/todo/fetch-todo/x', '/api/todo/restore-todo', '/api/user/x', '/api/openapi', '/api/todo/internal/todos']) {
      expect([unknown, (await client.get(unknown)).status]).toEqual([unknown, 404]);
    }
  });

  it('every route it names answers (never 404 ROUTE.NOT_FOUND or 405) when called as documented', async () => {
    /** Bodies for the calls that take one; the others are sent without. */
    const bodies: Record<string, (user: { email: string; password: string }) => unknown> = {
      signup: () => newUser('Documented'),
      login: (user) => user,
      changePassword: (user) => ({ currentPassword: user.password, newPassword: 'another good pass phrase 9' }),
      deleteAccount: (user) => ({ password: user.password }),
      addTodo: () => ({ title: 'documented' }),
      updateTodo: () => ({ updateData: { completed: true } }),
      completeAll: () => ({ completed: true }),
      reportWebVitals: () => ({ route: '/', metrics: [{ name: 'LCP', value: 1200 }] }),
    };
    const statuses: string[] = [];
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        // A fresh signed-in user with one task (deleted already for the restore), so no call depends on another.
        const client = new ApiClient(stack.gateway.url);
        await client.get('/api/user/me');
        const user = newUser('Caller');
        expect((await client.post<UserResponse>('/api/user/signup', user)).status).toBe(201);
        const task = (await client.post<TodoResponse>('/api/todo/add-todo', { title: 'a task' })).body.todo;
        if (operation.operationId === 'restoreTodo') await client.delete(`/api/todo/delete-todo/${task._id}`);
        let undoToken: string | undefined;
        if (operation.operationId === 'restoreBulk') {
          await client.put(`/api/todo/update-todo/${task._id}`, { updateData: { completed: true } });
          undoToken = (await client.delete<{ undoToken?: string }>('/api/todo/clear-completed')).body.undoToken;
        }
        const concrete = route.replace('{todoId}', task._id);
        let status: number;
        let code: unknown;
        if (operation.operationId === 'todoEvents') {
          const live = await openRawEventStream(stack.gateway.url + concrete, { cookie: client.cookieHeader() });
          status = live.status;
          live.close();
        } else {
          const body = operation.operationId === 'restoreBulk' ? { undoToken } : bodies[operation.operationId]?.(user);
          // A report of the vitals comes from the app's own page: its Origin (rum.routes.ts).
          const headers = operation.operationId === 'reportWebVitals' ? { origin: stack.gateway.url } : undefined;
          const answer = await client.request<{ code?: string }>(method.toUpperCase(), concrete, { ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
          status = answer.status;
          code = answer.body?.code;
        }
        statuses.push(`${method.toUpperCase()} ${route} ${status}`);
        expect(`${operation.operationId} ${status}`).toBe(`${operation.operationId} ${documentedSuccess(operation.responses)}`);
        expect(code).not.toBe('ROUTE.NOT_FOUND');
      }
    }
    // The API table's entries, the document itself and the vitals reports.
    expect(statuses.length).toBe(Object.keys(API).length + 2);
  });
});

/** The one 2xx status an operation documents. */
function documentedSuccess(responses: Record<string, unknown>): string {
  return Object.keys(responses).find((status) => /^2\d\d$/.test(status)) ?? 'none';
}
