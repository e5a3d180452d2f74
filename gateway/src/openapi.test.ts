import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { API, API_BASE, bodyLimitOf, ErrorBody, ErrorCode, ROUTES, type TodoResponse, type UserResponse } from '@tm/contracts';
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

/** Every (METHOD, /api path) the document names (its paths are below its server, `/api`), written as the router writes them (`:todoId`). */
function documented(): Set<string> {
  const routes = new Set<string>();
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) routes.add(`${method.toUpperCase()} ${API_BASE}${route.replace(/\{(\w+)\}/g, ':$1')}`);
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
    (broken.paths['/user/me']?.get?.responses['200'] as Record<string, unknown>).content = { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } };
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
      // A download (PRODUCT §10.23) is JSON or CSV, as asked.
      const download = 'download' in endpoint && endpoint.download;
      expect(Object.keys(success.content)).toEqual(stream ? ['text/event-stream'] : download ? ['application/json', 'text/csv'] : ['application/json']);
      for (const range of ['4XX', '5XX']) expect(operation.responses[range]).toBeDefined();
    }
    for (const response of Object.values(doc.components.responses)) {
      expect(response).toEqual(expect.objectContaining({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } }));
    }
    const agenda = doc.paths['/todo/agenda']?.get;
    expect((agenda?.parameters ?? []).map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['today', 'query', true],
      ['days', 'query', false],
    ]);
    // Search (PRODUCT §10.22): the words, then the task screen's filters.
    const search = doc.paths['/todo/search']?.get;
    expect((search?.parameters ?? []).map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['q', true],
      ['listId', false],
      ['status', false],
      ['priority', false],
      ['label', false],
      ['due', false],
      ['now', false],
    ]);
    const events = doc.paths['/todo/events']?.get;
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
      const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      for (const match of source.matchAll(/apiRouter\((?:'([^']*)')?\)|\brouter\.(get|post|put|delete|patch|all)\(\s*'([^']+)'/g)) {
        if (match[0].startsWith('apiRouter')) prefix = match[1] ?? '';
        else forwarded.add(`${match[2]?.toUpperCase()} ${prefix}${match[3]}`);
      }
      // The task writes, registered from one table (WRITE_ROUTES) by their contract routes.
      for (const match of source.matchAll(/\bwriteRoute\('(\w+)', ROUTES\.(\w+)\.path/g)) {
        forwarded.add(`${match[1]} ${ROUTES[match[2] as keyof typeof ROUTES].path}`);
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
    expect(doc.servers).toEqual([{ url: API_BASE, description: expect.any(String) }]);
    for (const route of Object.keys(doc.paths)) {
      const concrete = API_BASE + route.replace(/\{(todoId|listId|filterId)\}/, 'a'.repeat(24));
      for (const method of METHODS) {
        if (named.has(`${method.toUpperCase()} ${API_BASE}${route.replace(/\{(\w+)\}/g, ':$1')}`)) continue;
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
      updateProfile: () => ({ fullName: 'Renamed' }),
      forgotPassword: (user) => ({ email: user.email }),
      // No link was mailed in this test: the call answers, as documented, that this one does not work.
      resetPassword: () => ({ token: 'not-a-link-token', newPassword: 'another good pass phrase 9' }),
      addTodo: () => ({ title: 'documented' }),
      updateTodo: () => ({ updateData: { completed: true } }),
      syncTodos: () => ({ commands: [{ id: 'documented-1', method: 'POST', path: '/todo/add-todo', body: { title: 'documented' } }] }),
      completeAll: () => ({ completed: true }),
      // Lists (PRODUCT §10.19): the list of the path is the caller's own, made before the call.
      createList: () => ({ name: 'Documented' }),
      updateList: () => ({ archived: true }),
      // Saved filters (PRODUCT §10.20): the filter of the path is the caller's own, saved before the call.
      saveFilter: () => ({ name: 'Documented', address: '/?priority=1' }),
      reportWebVitals: () => ({ route: '/', metrics: [{ name: 'LCP', value: 1200 }] }),
      // Reminders (PRODUCT §10.17).
      reminderTimeZone: () => ({ timeZone: 'Europe/Paris' }),
      acknowledgeReminders: () => ({ reminders: [{ todoId: 'a'.repeat(24), due: '2030-01-01', minutes: 0 }] }),
      subscribePush: () => ({ subscription: { endpoint: 'https://push.example.test/documented', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }, timeZone: 'UTC' }),
      unsubscribePush: () => ({ endpoint: 'https://push.example.test/documented' }),
      // Import and export (PRODUCT §10.23): a Todoist project's CSV.
      importTodos: () => ({ fileName: 'Documented.csv', content: 'TYPE,CONTENT\ntask,Imported as documented\n' }),
    };
    /** The query strings of the calls that need one. */
    const QUERIES: Record<string, string> = { todoChanges: '?after=0', agenda: '?today=2026-12-06', searchTodos: '?q=task', exportTodos: '?format=json' };
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
        const list = route.includes('{listId}') ? (await client.post<{ list: { _id: string } }>('/api/todo/lists', { name: 'a list' })).body.list : undefined;
        const saved = route.includes('{filterId}') ? (await client.put<{ filter: { _id: string } }>('/api/todo/saved-filters', { name: 'a filter', address: '/?due=today' })).body.filter : undefined;
        let undoToken: string | undefined;
        if (operation.operationId === 'restoreBulk') {
          await client.put(`/api/todo/update-todo/${task._id}`, { updateData: { completed: true } });
          undoToken = (await client.delete<{ undoToken?: string }>('/api/todo/clear-completed')).body.undoToken;
        }
        const query = QUERIES[operation.operationId] ?? '';
        // The calendar feed's address carries the token the account's feed was turned on with (PRODUCT §10.18).
        const token = operation.operationId === 'calendarFeedIcs' ? new URL((await client.post<{ feed: { url: string } }>('/api/user/calendar-feed')).body.feed.url).pathname.split('/').pop()?.replace(/\.ics$/, '') : undefined;
        const concrete = API_BASE + route.replace('{todoId}', task._id).replace('{listId}', list?._id ?? '').replace('{filterId}', saved?._id ?? '').replace('{token}', token ?? '') + query;
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
        if (operation.operationId === 'resetPassword') {
          expect([status, code]).toEqual([400, ErrorCode.resetLinkInvalid]);
          expect(declares(operation.operationId, status, code)).toBe(true);
          continue;
        }
        expect(`${operation.operationId} ${status}`).toBe(`${operation.operationId} ${documentedSuccess(operation.responses)}`);
        expect(code).not.toBe('ROUTE.NOT_FOUND');
      }
    }
    // The API table's entries, the document itself, the vitals reports and the calendar feed.
    expect(statuses.length).toBe(Object.keys(API).length + 3);
  });
});

/** The one 2xx status an operation documents. */
function documentedSuccess(responses: Record<string, unknown>): string {
  return Object.keys(responses).find((status) => /^2\d\d$/.test(status)) ?? 'none';
}

/** The document's operation named `operationId`. */
function operationNamed(operationId: string): OpenApiDocument['paths'][string][string] {
  const found = Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`the document has no operation ${operationId}`);
  return found;
}

interface DeclaredResponse {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }>;
}

/** Whether the operation declares this status itself (not only a 4XX/5XX range), with `code` among its codes. */
function declares(operationId: string, status: number, code: unknown): boolean {
  const response = operationNamed(operationId).responses[String(status)] as DeclaredResponse | undefined;
  const codes = response?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
  return typeof code === 'string' && codes.includes(code);
}

describe('every refusal a call really answers is declared under it, with its code', () => {
  /** Its method and path under /api, for a task id. */
  const call = (name: keyof typeof API, todoId = 'a'.repeat(24)) => ({ method: API[name].method, path: API_BASE + API[name].path.replace(':todoId', todoId) });

  /** The answer is the refusal expected, and the document declares it under the call (Retry-After with a rate limit). */
  function expectDeclared(operationId: string, what: string, answer: { status: number; body: unknown; headers: Headers }, status: number, code: string): void {
    const body = ErrorBody.parse(answer.body);
    expect([operationId, what, answer.status, body.code]).toEqual([operationId, what, status, code]);
    expect([operationId, what, status, code, declares(operationId, status, code)]).toEqual([operationId, what, status, code, true]);
    if (code !== ErrorCode.rateLimited) return;
    expect([operationId, Number(answer.headers.get('retry-after')) >= 1]).toEqual([operationId, true]);
    expect((operationNamed(operationId).responses['429'] as DeclaredResponse).headers?.['Retry-After']).toBeDefined();
  }

  /** A signed-in user with one task, on `url`. */
  async function signedIn(url = stack.gateway.url) {
    const client = new ApiClient(url);
    await client.get('/api/user/me');
    const user = newUser('Refused');
    expect((await client.post<UserResponse>('/api/user/signup', user)).status).toBe(201);
    const task = (await client.post<TodoResponse>('/api/todo/add-todo', { title: 'a task' })).body.todo;
    return { client, user, task };
  }

  async function visitor(url = stack.gateway.url): Promise<ApiClient> {
    const client = new ApiClient(url);
    await client.get('/api/user/me');
    return client;
  }

  it('the refusals every call of its kind shares: 401, 403 (XSRF, another site), 413, 415, 400 (not JSON, not the shape)', async () => {
    const { client, task } = await signedIn();
    const anonymous = await visitor();
    for (const name of Object.keys(API) as (keyof typeof API)[]) {
      const { method, path: route } = call(name, task._id);
      const needsSession = operationNamed(name).security.some((requirement) => 'session' in requirement);
      const caller = needsSession ? client : anonymous;
      if (needsSession) expectDeclared(name, 'no session', await anonymous.request(method, route, method === 'GET' ? {} : { body: {} }), 401, ErrorCode.unauthenticated);
      if (method === 'GET') continue;
      expectDeclared(name, 'no XSRF token', await caller.request(method, route, { body: {}, xsrf: false }), 403, ErrorCode.xsrf);
      expectDeclared(name, 'another site', await caller.request(method, route, { body: {}, headers: { origin: 'https://elsewhere.example' } }), 403, ErrorCode.crossSite);
      const large = await caller.request(method, route, { rawBody: JSON.stringify({ title: 'x'.repeat(bodyLimitOf(route) + 1024) }), headers: { 'content-type': 'application/json' } });
      expectDeclared(name, 'too large', large, 413, ErrorCode.bodyTooLarge);
      // logout and logout-all read no body (and would end the session): they have nothing of this to refuse.
      if (name === 'logout' || name === 'logoutAll') continue;
      expectDeclared(name, 'text', await caller.request(method, route, { rawBody: '{}', headers: { 'content-type': 'text/plain' } }), 415, ErrorCode.unsupportedMediaType);
      expectDeclared(name, 'not JSON', await caller.request(method, route, { rawBody: '{', headers: { 'content-type': 'application/json' } }), 400, ErrorCode.malformedJson);
      if ('request' in API[name]) expectDeclared(name, 'not the shape', await caller.request(method, route, { body: { nothing: true } }), 400, ErrorCode.validation);
    }
  });

  it("each call's own refusals: wrong credentials, a taken email, a wrong password, an unknown task, too many streams", async () => {
    const { client, user, task } = await signedIn();
    const other = await signedIn();
    const anonymous = await visitor();
    expectDeclared('login', 'wrong password', await anonymous.post('/api/user/login', { email: user.email, password: 'not the password' }), 401, ErrorCode.invalidCredentials);
    expectDeclared('signup', 'taken email', await anonymous.post('/api/user/signup', { ...newUser(), email: user.email }), 409, ErrorCode.emailTaken);
    expectDeclared('changePassword', 'wrong password', await client.put('/api/user/password', { currentPassword: 'not the password', newPassword: 'another good pass phrase 9' }), 403, ErrorCode.wrongPassword);
    expectDeclared('deleteAccount', 'wrong password', await client.delete('/api/user/account', { body: { password: 'not the password' } }), 403, ErrorCode.wrongPassword);
    const profile = call('updateProfile');
    expectDeclared('updateProfile', 'wrong password', await client.request(profile.method, profile.path, { body: { email: newUser().email, currentPassword: 'not the password' } }), 403, ErrorCode.wrongPassword);
    expectDeclared('updateProfile', 'taken email', await client.request(profile.method, profile.path, { body: { email: other.user.email, currentPassword: user.password } }), 409, ErrorCode.emailTaken);
    const reset = call('resetPassword');
    expectDeclared('resetPassword', 'unknown link', await anonymous.request(reset.method, reset.path, { body: { token: 'x'.repeat(43), newPassword: 'another good pass phrase 9' } }), 400, ErrorCode.resetLinkInvalid);

    const unknown = 'b'.repeat(24);
    expectDeclared('updateTodo', 'unknown task', await client.put(`/api/todo/update-todo/${unknown}`, { updateData: { completed: true } }), 404, ErrorCode.todoNotFound);
    expectDeclared('updateTodo', "another user's task", await other.client.put(`/api/todo/update-todo/${task._id}`, { updateData: { completed: true } }), 404, ErrorCode.todoNotFound);
    expectDeclared('updateTodo', 'not an id', await client.put('/api/todo/update-todo/not-an-id', { updateData: { completed: true } }), 400, ErrorCode.validation);
    expectDeclared('deleteTodo', 'unknown task', await client.delete(`/api/todo/delete-todo/${unknown}`), 404, ErrorCode.todoNotFound);
    expectDeclared('restoreTodo', 'never deleted', await client.post(`/api/todo/restore-todo/${task._id}`), 404, ErrorCode.todoNotRestorable);
    expectDeclared('restoreBulk', 'unknown token', await client.post('/api/todo/restore-bulk', { undoToken: 'no-such-token' }), 404, ErrorCode.todoNotRestorable);
    // Lists (PRODUCT §10.19): a name taken (case aside), an unknown or another user's list.
    const list = (await client.post<{ list: { _id: string } }>('/api/todo/lists', { name: 'Work' })).body.list;
    expectDeclared('createList', 'taken name', await client.post('/api/todo/lists', { name: 'WORK' }), 409, ErrorCode.listNameTaken);
    expect((await client.post('/api/todo/lists', { name: 'Home' })).status).toBe(201);
    expectDeclared('updateList', 'taken name', await client.put(`/api/todo/lists/${list._id}`, { name: 'home' }), 409, ErrorCode.listNameTaken);
    expectDeclared('updateList', 'unknown list', await client.put(`/api/todo/lists/${unknown}`, { archived: true }), 404, ErrorCode.listNotFound);
    expectDeclared('updateList', "another user's list", await other.client.put(`/api/todo/lists/${list._id}`, { archived: true }), 404, ErrorCode.listNotFound);
    expectDeclared('deleteList', "another user's list", await other.client.delete(`/api/todo/lists/${list._id}`), 404, ErrorCode.listNotFound);
    expectDeclared('addTodo', 'unknown list', await client.post('/api/todo/add-todo', { title: 't', listId: unknown }), 400, ErrorCode.validation);
    // Saved filters (PRODUCT §10.20): a bad address, another user's filter.
    expectDeclared('saveFilter', 'bad address', await client.put('/api/todo/saved-filters', { name: 'Odd', address: '/?sort=asc' }), 400, ErrorCode.validation);
    const filter = (await client.put<{ filter: { _id: string } }>('/api/todo/saved-filters', { name: 'Errands', address: '/?label=errand' })).body.filter;
    expectDeclared('deleteSavedFilter', "another user's filter", await other.client.delete(`/api/todo/saved-filters/${filter._id}`), 404, ErrorCode.savedFilterNotFound);

    expectDeclared('todoEvents', 'bad cursor', await client.get('/api/todo/events?after=x'), 400, ErrorCode.validation);
    expectDeclared('todoChanges', 'no cursor', await client.get('/api/todo/changes'), 400, ErrorCode.validation);
    expectDeclared('agenda', 'no today', await client.get('/api/todo/agenda'), 400, ErrorCode.validation);
    expectDeclared('agenda', 'days out of range', await client.get('/api/todo/agenda?today=2026-12-06&days=32'), 400, ErrorCode.validation);
    expectDeclared('searchTodos', 'no word to search for', await client.get('/api/todo/search?q=%20'), 400, ErrorCode.validation);
    const streams = await Promise.all(Array.from({ length: 5 }, () => openRawEventStream(`${stack.gateway.url}/api/todo/events`, { cookie: client.cookieHeader() })));
    try {
      expect(streams.map((live) => live.status)).toEqual([200, 200, 200, 200, 200]);
      expectDeclared('todoEvents', 'a sixth stream', await client.get('/api/todo/events'), 429, ErrorCode.tooManyStreams);
    } finally {
      for (const live of streams) live.close();
    }

    const beacon = (body: string, headers: Record<string, string> = {}) =>
      anonymous.request('POST', '/api/rum', { rawBody: body, headers: { origin: stack.gateway.url, 'content-type': 'text/plain', ...headers } });
    const report = JSON.stringify({ route: '/', metrics: [{ name: 'LCP', value: 1200 }] });
    expectDeclared('reportWebVitals', 'another site', await beacon(report, { origin: 'https://elsewhere.example' }), 403, ErrorCode.crossSite);
    expectDeclared('reportWebVitals', 'not JSON', await beacon('{'), 400, ErrorCode.malformedJson);
    expectDeclared('reportWebVitals', 'implausible', await beacon(JSON.stringify({ route: '/', metrics: [{ name: 'LCP', value: 3_600_000 }] })), 400, ErrorCode.validation);
    expectDeclared('reportWebVitals', 'html', await beacon(report, { 'content-type': 'text/html' }), 415, ErrorCode.unsupportedMediaType);
    expectDeclared('reportWebVitals', 'too large', await beacon(JSON.stringify({ route: '/', metrics: [], pad: 'x'.repeat(5000) })), 413, ErrorCode.bodyTooLarge);
  });

  it('rate limits: 429 with Retry-After, declared with the header, on every call that has one', async () => {
    const started: TestGateway[] = [];
    const gatewayWith = async (overrides: Parameters<typeof inProcessGateway>[0]) => {
      const gateway = await inProcessGateway(overrides)({ dataDir: stack.dataDir, usersUrl: stack.users.url, todosUrl: stack.todos.url });
      started.push(gateway);
      return gateway;
    };
    try {
      // Sign-ups per address.
      const signups = await gatewayWith({ signupRateLimit: { points: 1, windowSeconds: 60 } });
      const first = await visitor(signups.url);
      expect((await first.post('/api/user/signup', newUser())).status).toBe(201);
      expectDeclared('signup', 'signups per address', await (await visitor(signups.url)).post('/api/user/signup', newUser()), 429, ErrorCode.rateLimited);

      // Sign-in attempts per address: login, signup and both password reset calls count together.
      const attempts = await gatewayWith({ authRateLimit: { points: 1, windowSeconds: 60 } });
      const guest = await visitor(attempts.url);
      expect((await guest.post('/api/user/login', { email: newUser().email, password: 'whatever it is' })).status).toBe(401);
      expectDeclared('login', 'attempts per address', await guest.post('/api/user/login', { email: newUser().email, password: 'whatever it is' }), 429, ErrorCode.rateLimited);
      expectDeclared('signup', 'attempts per address', await guest.post('/api/user/signup', newUser()), 429, ErrorCode.rateLimited);
      const forgot = call('forgotPassword');
      const reset = call('resetPassword');
      expectDeclared('forgotPassword', 'attempts per address', await guest.request(forgot.method, forgot.path, { body: { email: newUser().email } }), 429, ErrorCode.rateLimited);
      expectDeclared('resetPassword', 'attempts per address', await guest.request(reset.method, reset.path, { body: { token: 'x'.repeat(43), newPassword: 'another good pass phrase 9' } }), 429, ErrorCode.rateLimited);

      // Reset links asked for one email (5 an hour, whatever the address asking).
      const asker = await visitor();
      const email = newUser().email;
      for (let i = 0; i < 5; i += 1) expect((await asker.request(forgot.method, forgot.path, { body: { email } })).status).toBe(200);
      expectDeclared('forgotPassword', 'links per email', await asker.request(forgot.method, forgot.path, { body: { email } }), 429, ErrorCode.rateLimited);

      // Wrong passwords against one account: from the third in a row, each next try waits.
      const throttled = await gatewayWith({ accountThrottle: { failLimit: 10, windowSeconds: 900, lockoutSeconds: 900 } });
      const { user } = await signedIn(throttled.url);
      const owner = new ApiClient(throttled.url);
      await owner.get('/api/user/me');
      expect((await owner.post('/api/user/login', { email: user.email, password: user.password })).status).toBe(200);
      const wrong = { currentPassword: 'not the password', newPassword: 'another good pass phrase 9' };
      for (let i = 0; i < 3; i += 1) expect((await owner.put('/api/user/password', wrong)).status).toBe(403);
      expectDeclared('changePassword', 'wrong passwords in a row', await owner.put('/api/user/password', wrong), 429, ErrorCode.rateLimited);
      expectDeclared('deleteAccount', 'wrong passwords in a row', await owner.delete('/api/user/account', { body: { password: 'not the password' } }), 429, ErrorCode.rateLimited);
      const profile = call('updateProfile');
      expectDeclared('updateProfile', 'wrong passwords in a row', await owner.request(profile.method, profile.path, { body: { email: newUser().email, currentPassword: 'not the password' } }), 429, ErrorCode.rateLimited);
      const stranger = await visitor(throttled.url);
      for (let i = 0; i < 3; i += 1) expect((await stranger.post('/api/user/login', { email: user.email, password: 'not the password' })).status).toBe(401);
      expectDeclared('login', 'wrong passwords in a row', await stranger.post('/api/user/login', { email: user.email, password: 'not the password' }), 429, ErrorCode.rateLimited);

      // Vitals reports per address.
      const reports = await gatewayWith({ rum: { rateLimit: { points: 1, windowSeconds: 60 }, maxRoutes: 50 } });
      const beacon = () =>
        new ApiClient(reports.url).request('POST', '/api/rum', {
          rawBody: JSON.stringify({ route: 'other', metrics: [{ name: 'TTFB', value: 80 }] }),
          headers: { origin: reports.url, 'content-type': 'text/plain' },
        });
      expect((await beacon()).status).toBe(204);
      expectDeclared('reportWebVitals', 'reports per address', await beacon(), 429, ErrorCode.rateLimited);
    } finally {
      await Promise.all(started.map((gateway) => gateway.close()));
    }
  });
});
