import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import * as contracts from './index.js';
import { API, TodoChangeEvent, Todo } from './index.js';
import { createOpenApiDocument, openApiPath } from './openapi.js';

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
    // The API table's entries, plus the gateway's own: the document itself and the vitals reports (RUM).
    expect(operations.sort()).toEqual([...Object.keys(API), 'openApi', 'reportWebVitals'].sort());
    expect(openApiPath('/todo/update-todo/:todoId')).toBe('/api/todo/update-todo/{todoId}');
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
    expect(schemas.Todo).toEqual(expect.objectContaining({ required: Object.keys(Todo.shape) }));
    expect(schemas.TodoChangeEvent).toEqual(
      expect.objectContaining({ required: Object.keys((TodoChangeEvent as z.ZodObject).shape) }),
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
    const restore = doc.paths['/api/todo/restore-bulk']?.post;
    expect(restore?.operationId).toBe('restoreBulk');
    expect(Object.keys(restore?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '4XX', '5XX']);
    expect(restore?.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/RestoreBulkRequest' } } } });
    expect(schemas.TodoTitle?.description).toMatch(/U\+202A–U\+202E, U\+2066–U\+2069/);
  });
});
