import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import * as contracts from './index.js';
import { API, ErrorCode, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, labelNameProblem, LIMITS, SubtaskItem, subtaskIdProblem, PRIORITIES, RUM_LIMITS, TodoChangeEvent, Todo, type ApiName } from './index.js';
import { createOpenApiDocument, LABEL_PATTERN, openApiPath, type OpenApiOperation } from './openapi.js';

describe('the OpenAPI generator (@tm/contracts/openapi)', () => {
  it('stays out of the index the browser bundles import', () => {
    expect(Object.keys(contracts)).not.toContain('createOpenApiDocument');
    const sources = ['index.ts', 'api.ts', 'common.ts', 'errors.ts', 'limits.ts', 'todos.ts', 'users.ts'];
    for (const file of sources) expect(readFileSync(path.join(__dirname, file), 'utf8')).not.toMatch(/openapi/);
    const subpath = JSON.parse(readFileSync(path.join(__dirname, '../openapi/package.json'), 'utf8')) as { main: string; types: string };
    expect(subpath).toEqual(expect.objectContaining({ main: '../dist/openapi.js', types: '../dist/openapi.d.ts' }));
  });

  it('is deterministic and names every entry of the API table once', () => {
    const doc = createOpenApiDocument();
    expect(JSON.stringify(createOpenApiDocument())).toBe(JSON.stringify(doc));
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    // The API table's entries, plus the gateway's own: the document itself, the vitals reports (RUM) and the calendar feed.
    expect(operations.sort()).toEqual([...Object.keys(API), 'openApi', 'reportWebVitals', 'calendarFeedIcs'].sort());
    expect(openApiPath('/todo/update-todo/:todoId')).toBe('/todo/update-todo/{todoId}');
  });

  it('describes the wire (input) side of the schemas, ids case-insensitively as they are parsed', () => {
    const { schemas } = createOpenApiDocument().components;
    const id = new RegExp(String(schemas.ObjectIdString?.pattern));
    expect(id.test('0123456789ABCDEF01234567')).toBe(true);
    expect(id.test('0123456789abcdef0123456')).toBe(false);
    const todo = {
      _id: '0123456789abcdef01234567',
      title: 't',
      completed: false,
      isPinned: true,
      createdAt: new Date(0).toISOString(),
      updatedAt: new Date(0).toISOString(),
      completedAt: null,
    };
    expect(Todo.parse(todo)).toEqual(todo);
    // Every field is required but the optional ones a client that knows nothing of dates never sees.
    const optional = ['due', 'repeat', 'repeatFrom', 'repeatDone', 'reminders', 'listId', 'priority', 'labels', 'note', 'subtasks', 'order'];
    expect(schemas.Todo).toEqual(expect.objectContaining({ required: Object.keys(Todo.shape).filter((key) => !optional.includes(key)) }));
    // A change that touched no list carries no list fields (docs/PRODUCT.md §10.19): a spec client sees the event it knows.
    expect(schemas.TodoChangeEvent).toEqual(
      expect.objectContaining({ required: Object.keys((TodoChangeEvent as z.ZodObject).shape).filter((key) => key !== 'savedLists' && key !== 'removedLists') }),
    );
    for (const schema of Object.values(schemas)) {
      expect(schema).not.toHaveProperty('$schema');
      expect(schema).not.toHaveProperty('$id');
    }
  });

  it('describes completion times and the undo of bulk actions (restore-bulk, its token, its 404)', () => {
    const doc = createOpenApiDocument();
    const { schemas } = doc.components;
    expect(schemas.Todo?.required).toContain('completedAt');
    expect(JSON.stringify((schemas.Todo?.properties as Record<string, unknown>).completedAt)).toContain('"type":"null"');
    expect(schemas.BulkTodosResponse?.required).toEqual(['message', 'count']);
    expect((schemas.BulkTodosResponse?.properties as Record<string, unknown>).undoToken).toEqual({ $ref: '#/components/schemas/UndoToken' });
    expect(schemas.UndoToken).toEqual(expect.objectContaining({ type: 'string', minLength: 1, maxLength: 128, description: expect.stringContaining('single-use') }));
    expect(schemas.RestoreBulkRequest).toEqual(expect.objectContaining({ required: ['undoToken'], additionalProperties: false }));
    expect(schemas.RestoreBulkResponse?.required).toEqual(['message', 'count', 'todos']);
    const restore = doc.paths['/todo/restore-bulk']?.post;
    expect(restore?.operationId).toBe('restoreBulk');
    expect(Object.keys(restore?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '413', '415', '422', '4XX', '5XX']);
    expect(restore?.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/RestoreBulkRequest' } } } });
    expect(schemas.TodoTitle?.description).toMatch(/U\+202A–U\+202E, U\+2066–U\+2069/);
  });
});

/** Every operation of the document by its operationId. */
function operations(): Map<string, OpenApiOperation> {
  const doc = createOpenApiDocument();
  return new Map(Object.values(doc.paths).flatMap((item) => Object.values(item).map((operation) => [operation.operationId, operation] as const)));
}

/** The codes an operation declares under a status (its error body's `code` enum); undefined when the status is not declared. */
function declaredCodes(operation: OpenApiOperation | undefined, status: number): string[] | undefined {
  const response = operation?.responses[String(status)] as { content?: Record<string, { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }> } | undefined;
  if (!response) return undefined;
  return response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
}

describe('where the API is and who may call what', () => {
  it('has one server, the gateway\'s /api on the same origin; every path is below it', () => {
    const doc = createOpenApiDocument();
    expect(doc.servers).toEqual([{ url: '/api', description: expect.any(String) }]);
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/(user|todo|openapi\.json|rum|calendar)\b/);
  });

  it('asks no session of the calls that cannot have one: signing in and the other anonymous writes need only the XSRF token', () => {
    const all = operations();
    for (const name of ['signup', 'login', 'logout', 'forgotPassword', 'resetPassword'] as const) {
      if (!(name in API)) continue;
      expect([name, all.get(name)?.security]).toEqual([name, [{ xsrf: [] }]]);
    }
    expect(all.get('me')?.security).toEqual([{ session: [] }]);
    expect(all.get('addTodo')?.security).toEqual([{ session: [], xsrf: [] }]);
    expect(all.get('todoEvents')?.security).toEqual([{ session: [] }]);
    expect(all.get('openApi')?.security).toEqual([]);
    expect(all.get('reportWebVitals')?.security).toEqual([]);
  });
});

describe('every error a call can answer, declared under its status with its codes', () => {
  const all = operations();
  const writes = (Object.keys(API) as ApiName[]).filter((name) => API[name].method !== 'GET');

  it('names the errors of each call (the ones the probe found missing among them)', () => {
    expect(declaredCodes(all.get('login'), 401)).toEqual([ErrorCode.invalidCredentials]);
    expect(declaredCodes(all.get('signup'), 409)).toEqual([ErrorCode.emailTaken]);
    expect(declaredCodes(all.get('changePassword'), 403)).toEqual(expect.arrayContaining([ErrorCode.wrongPassword, ErrorCode.xsrf, ErrorCode.crossSite]));
    expect(declaredCodes(all.get('deleteAccount'), 403)).toEqual(expect.arrayContaining([ErrorCode.wrongPassword]));
    expect(declaredCodes(all.get('updateTodo'), 404)).toEqual([ErrorCode.todoNotFound]);
    expect(declaredCodes(all.get('restoreTodo'), 404)).toEqual([ErrorCode.todoNotRestorable]);
    expect(declaredCodes(all.get('todoEvents'), 429)).toEqual([ErrorCode.tooManyStreams]);
    // Signing in has no session to lose: never AUTH.UNAUTHENTICATED.
    for (const name of ['signup', 'login'] as const) expect(declaredCodes(all.get(name), 401) ?? []).not.toContain(ErrorCode.unauthenticated);
    for (const name of ['me', 'fetchTodos', 'addTodo', 'todoEvents', 'logoutAll'] as const) expect(declaredCodes(all.get(name), 401)).toEqual([ErrorCode.unauthenticated]);
  });

  it('declares 403 (XSRF, cross-site) and 413 on every write, 415 and 400 on every write that reads a JSON body', () => {
    for (const name of writes) {
      expect([name, declaredCodes(all.get(name), 403)]).toEqual([name, expect.arrayContaining([ErrorCode.xsrf, ErrorCode.crossSite])]);
      expect([name, declaredCodes(all.get(name), 413)]).toEqual([name, [ErrorCode.bodyTooLarge]]);
      // logout and logout-all take no body: the gateway answers them without reading one.
      if (name === 'logout' || name === 'logoutAll') continue;
      expect([name, declaredCodes(all.get(name), 415)]).toEqual([name, [ErrorCode.unsupportedMediaType]]);
      expect([name, declaredCodes(all.get(name), 400)]).toEqual([name, expect.arrayContaining([ErrorCode.malformedJson])]);
      if ('request' in API[name]) expect([name, declaredCodes(all.get(name), 400)]).toEqual([name, expect.arrayContaining([ErrorCode.validation])]);
    }
    for (const name of ['me', 'fetchTodos', 'todoEvents'] as const) expect(all.get(name)?.responses['403']).toBeUndefined();
  });

  it('declares 429 with Retry-After on every rate-limited call, and a 429 without it only where none is sent', () => {
    const limited = ['signup', 'login', 'changePassword', 'deleteAccount', 'updateProfile', 'forgotPassword', 'resetPassword', 'reportWebVitals'].filter((name) => all.has(name));
    for (const name of limited) {
      const response = all.get(name)?.responses['429'] as { headers?: Record<string, unknown> } | undefined;
      expect([name, declaredCodes(all.get(name), 429)]).toEqual([name, [ErrorCode.rateLimited]]);
      expect([name, response?.headers]).toEqual([name, { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }]);
    }
    expect(createOpenApiDocument().components.headers.RetryAfter).toEqual(expect.objectContaining({ required: true, schema: { type: 'integer', minimum: 1 } }));
    expect((all.get('todoEvents')?.responses['429'] as { headers?: unknown }).headers).toBeUndefined();
    for (const name of ['addTodo', 'fetchTodos', 'me']) expect(all.get(name)?.responses['429']).toBeUndefined();
  });

  it('declares the Idempotency-Key header and its 422 on every task write, and on nothing else (a sync call\'s commands carry their own ids)', () => {
    // Saved filters are no task writes: a save by name and a delete by id are each the same when repeated.
    const taskWrites = writes.filter((name) => API[name].path.startsWith('/todo/') && !API[name].path.startsWith('/todo/reminders') && !API[name].path.startsWith('/todo/saved-filters') && name !== 'syncTodos');
    expect(taskWrites.sort()).toEqual(['addTodo', 'clearCompleted', 'completeAll', 'createList', 'deleteList', 'deleteTodo', 'importTodos', 'restoreBulk', 'restoreTodo', 'updateList', 'updateTodo']);
    for (const [name, operation] of all) {
      const header = operation.parameters?.find((parameter) => (parameter as { name?: string }).name === IDEMPOTENCY_KEY_HEADER);
      const keyed = (taskWrites as string[]).includes(name);
      expect([name, declaredCodes(operation, 422)]).toEqual([name, keyed ? [ErrorCode.idempotencyKeyReused] : undefined]);
      expect([name, header]).toEqual([
        name,
        keyed ? expect.objectContaining({ in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source } }) : undefined,
      ]);
    }
    expect(IDEMPOTENCY_KEY_PATTERN.test('x'.repeat(255))).toBe(true);
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) expect([key, IDEMPOTENCY_KEY_PATTERN.test(key)]).toEqual([key, false]);
  });

  it('names only real error codes, and keeps the 4XX and 5XX ranges for the rest', () => {
    const codes = new Set<string>(Object.values(ErrorCode));
    for (const [name, operation] of all) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        expect([name, status, (response as { description?: string }).description]).toEqual([name, status, expect.stringMatching(/\S/)]);
        for (const code of declaredCodes(operation, Number(status)) ?? []) expect([name, status, codes.has(code)]).toEqual([name, status, true]);
      }
      expect(Object.keys(operation.responses).slice(-2)).toEqual(['4XX', '5XX']);
    }
  });
});

describe('limits said in the schemas, not only in words', () => {
  const { schemas } = createOpenApiDocument().components;

  it('a title: 1–500 characters; a patch: at least one field; a password: 8–128', () => {
    for (const title of ['TodoTitle', 'EditedTodoTitle']) {
      expect(schemas[title]).toEqual(expect.objectContaining({ type: 'string', minLength: LIMITS.todoTitle.min, maxLength: LIMITS.todoTitle.max }));
    }
    expect(LIMITS.todoTitle).toEqual({ min: 1, max: 500 });
    expect(schemas.TodoPatch).toEqual(expect.objectContaining({ minProperties: 1, additionalProperties: false }));
    expect(schemas.Password).toEqual(expect.objectContaining({ minLength: 8, maxLength: 128 }));
    expect(schemas.Email).toEqual(expect.objectContaining({ maxLength: 254, format: 'email' }));
    expect(schemas.SignupRequest?.properties).toEqual(expect.objectContaining({ fullName: { type: 'string', minLength: 1, maxLength: 100 } }));
  });

  it('a list: name 1–60 characters, order key at most 128, a patch of at least one field, the nine colours (docs/PRODUCT.md §10.19)', () => {
    expect(schemas.ListName).toEqual(expect.objectContaining({ type: 'string', minLength: LIMITS.listName.min, maxLength: LIMITS.listName.max }));
    expect(schemas.OrderKey).toEqual(expect.objectContaining({ type: 'string', maxLength: LIMITS.orderKey.max }));
    expect(schemas.ListPatch).toEqual(expect.objectContaining({ minProperties: 1, additionalProperties: false }));
    expect(schemas.ListColourField).toEqual(expect.objectContaining({ enum: [...contracts.LIST_COLOURS] }));
    expect(schemas.CreateListRequest).toEqual(expect.objectContaining({ required: ['name'], additionalProperties: false }));
    // A list's refusals: its name taken or the lists full (409), an unknown list (404), each with its code.
    const doc = createOpenApiDocument();
    const create = doc.paths['/todo/lists']?.post;
    const update = doc.paths['/todo/lists/{listId}']?.put;
    const remove = doc.paths['/todo/lists/{listId}']?.delete;
    expect(JSON.stringify(create?.responses['409'])).toContain(ErrorCode.listNameTaken);
    expect(JSON.stringify(create?.responses['409'])).toContain(ErrorCode.listsFull);
    expect(JSON.stringify(update?.responses['404'])).toContain(ErrorCode.listNotFound);
    expect(JSON.stringify(update?.responses['409'])).toContain(ErrorCode.listNameTaken);
    expect(JSON.stringify(remove?.responses['404'])).toContain(ErrorCode.listNotFound);
    expect(remove?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'listId', in: 'path', required: true })]));
    const clear = doc.paths['/todo/clear-completed']?.delete;
    expect(clear?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'listId', in: 'query', required: false })]));
    expect(schemas.TodosResponse).toEqual(expect.objectContaining({ required: ['todos', 'lists', 'cursor'] }));
  });

  it('a priority: 1–4 in a request, 1–3 on a task; labels: each a name of the rules, 1–40 characters (docs/PRODUCT.md §10.20)', () => {
    expect(schemas.TodoPriority).toEqual(expect.objectContaining({ type: 'integer', enum: [...PRIORITIES], description: expect.stringContaining('4 is none') }));
    const todo = schemas.Todo?.properties as Record<string, unknown>;
    expect(todo.priority).toEqual({ type: 'integer', enum: [1, 2, 3] });
    expect(todo.labels).toEqual({ type: 'array', items: { type: 'string' } });
    const labels = schemas.TodoLabels as { type: string; items: { minLength: number; maxLength: number; pattern: string }; description: string };
    expect(labels).toEqual(expect.objectContaining({ type: 'array', description: expect.stringContaining(`at most ${LIMITS.labelsPerTask}`) }));
    expect(labels.items).toEqual({ type: 'string', minLength: LIMITS.labelName.min, maxLength: LIMITS.labelName.max, pattern: LABEL_PATTERN });
    // The pattern is the rule's own (labelNameProblem), for names within the length.
    const pattern = new RegExp(labels.items.pattern, 'u');
    for (const name of ['errand', 'Übung', 'a-b_c.d/e', '2027', '日本語', 'cafe\u0301', 'on the way', '@errand', 'a,b', 'emoji😀', 'tab\there', '-', '/']) {
      expect([name, pattern.test(name)]).toEqual([name, labelNameProblem(name) === null]);
    }
    const add = schemas.AddTodoRequest?.properties as Record<string, unknown>;
    expect([add.priority, add.labels]).toEqual([{ $ref: '#/components/schemas/TodoPriority' }, { $ref: '#/components/schemas/TodoLabels' }]);
    const patch = schemas.TodoPatch?.properties as Record<string, unknown>;
    expect(patch.priority).toEqual({ anyOf: [{ $ref: '#/components/schemas/TodoPriority' }, { type: 'null' }] });
    expect(patch.labels).toEqual({ anyOf: [{ $ref: '#/components/schemas/TodoLabels' }, { type: 'null' }] });
    expect(schemas.TodoPatch?.description).toContain('priority and labels');
  });

  it('a note: at most 10000 characters; subtasks: at most 100, each id by the pattern, each title 1–500 (docs/PRODUCT.md §10.21)', () => {
    expect(schemas.TodoNote).toEqual(expect.objectContaining({ type: 'string', maxLength: LIMITS.note.max }));
    expect(schemas.TodoSubtasks).toEqual(expect.objectContaining({ type: 'array', maxItems: LIMITS.subtasksPerTask, items: { $ref: '#/components/schemas/SubtaskItem' } }));
    const item = schemas.SubtaskItem as { properties: Record<string, { pattern?: string }>; required: string[] };
    expect(item.required.sort()).toEqual(['done', 'id', 'title']);
    expect(Object.keys(item.properties).sort()).toEqual(Object.keys(SubtaskItem.shape).sort());
    const id = new RegExp(String(item.properties.id?.pattern));
    for (const value of ['a', 'A-b_9', 'x'.repeat(40), '', 'a b', 'x'.repeat(41), 'é']) expect([value, id.test(value)]).toEqual([value, subtaskIdProblem(value) === null]);
    const patch = schemas.TodoPatch?.properties as Record<string, unknown>;
    expect([patch.note, patch.subtasks]).toEqual([
      { anyOf: [{ $ref: '#/components/schemas/TodoNote' }, { type: 'null' }] },
      { anyOf: [{ $ref: '#/components/schemas/TodoSubtasks' }, { type: 'null' }] },
    ]);
    const add = schemas.AddTodoRequest?.properties as Record<string, unknown>;
    expect([add.note, add.subtasks]).toEqual([{ $ref: '#/components/schemas/TodoNote' }, { $ref: '#/components/schemas/TodoSubtasks' }]);
  });

  it('each vital of a RUM report within its own plausible range', () => {
    const metric = schemas.RumMetric as { oneOf: { properties: { name: { const: string }; value: { minimum: number; maximum: number } } }[] };
    expect(Object.fromEntries(metric.oneOf.map((one) => [one.properties.name.const, [one.properties.value.minimum, one.properties.value.maximum]]))).toEqual({
      LCP: [0, RUM_LIMITS.maxValue.LCP],
      INP: [0, RUM_LIMITS.maxValue.INP],
      CLS: [0, RUM_LIMITS.maxValue.CLS],
      TTFB: [0, RUM_LIMITS.maxValue.TTFB],
    });
  });

  it('the live stream as its events: change, ready and reset, each with its id and its data', () => {
    const events = createOpenApiDocument().paths['/todo/events']?.get?.responses['200'] as {
      content: Record<string, { schema: { type: string; items: { oneOf: { properties: { event: { const: string }; id: unknown; data: unknown } }[] } } }>;
    };
    const stream = events.content['text/event-stream']?.schema;
    expect(stream?.type).toBe('array');
    expect(stream?.items.oneOf.map((one) => [one.properties.event.const, one.properties.data])).toEqual([
      ['change', { $ref: '#/components/schemas/TodoChangeEvent' }],
      ['ready', { $ref: '#/components/schemas/StreamPosition' }],
      ['reset', { $ref: '#/components/schemas/StreamPosition' }],
    ]);
    for (const one of stream?.items.oneOf ?? []) expect(one.properties.id).toEqual({ $ref: '#/components/schemas/EventCursor' });
  });
});
