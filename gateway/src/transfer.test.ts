import { ImportRefusal, ImportResponse, LIMITS, TransferDocument, type TodoResponse } from '@tm/contracts';
import { signUp, startStack, type RunningStack } from '@tm/test-support';
import { inProcessGateway, type TestGateway } from './gateway.test-helpers.js';

// Import and export through the gateway (docs/PRODUCT.md §10.23), against the built services over real HTTP:
// the export is a download with its file name (JSON checked by its contract, CSV as text); the import's body
// may be far larger than any other call's (LIMITS.import.bodyBytes) while every other call keeps its limit.

let stack: RunningStack<TestGateway>;
beforeAll(async () => {
  stack = await startStack({ gateway: inProcessGateway() });
});
afterAll(async () => {
  await stack.stop();
});

/** A Todoist CSV of `count` tasks, each title long enough that the file is far over the usual body limit. */
function todoistFile(count: number): string {
  const rows = Array.from({ length: count }, (_, index) => `task,Task number ${index} ${'x'.repeat(80)} @bulk,,${(index % 4) + 1},1,,,,,`);
  return ['TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE', ...rows].join('\n');
}

describe('import and export through the gateway (PRODUCT §10.23)', () => {
  it('imports a file over the usual body limit, and exports it back as JSON and CSV downloads', async () => {
    const { client } = await signUp(stack.url, { name: 'Porter' });
    const content = todoistFile(3000);
    // Larger than any other call may send (a sync call's is the largest).
    expect(content.length).toBeGreaterThan(Math.max(LIMITS.bodyBytes, LIMITS.sync.bodyBytes));
    const imported = await client.post('/api/todo/import', { fileName: 'Bulk.csv', content });
    expect([imported.status, ImportResponse.parse(imported.body).message]).toEqual([200, 'Imported 3000 tasks into 1 list.']);

    const json = await client.get('/api/todo/export?format=json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="task-manager-\d{4}-\d{2}-\d{2}\.json"$/);
    const document = TransferDocument.parse(json.body);
    expect(document.tasks).toHaveLength(3000);
    expect(document.lists.map((list) => list.name)).toEqual(['Bulk']);

    const csv = await client.get('/api/todo/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/filename="task-manager-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(String(csv.body).split('\r\n').filter((row) => row.startsWith('Bulk,'))).toHaveLength(3000);
  });

  it('refuses a file over the import limit with 413 before any service reads it, and keeps the other calls at theirs', async () => {
    const { client } = await signUp(stack.url, { name: 'Limits' });
    const tooLarge = await client.post('/api/todo/import', { fileName: 'huge.csv', content: 'x'.repeat(LIMITS.import.bodyBytes) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'BODY.TOO_LARGE' });
    const bigAdd = await client.post<TodoResponse>('/api/todo/add-todo', { title: 'x'.repeat(LIMITS.bodyBytes) });
    expect(bigAdd.status).toBe(413);
    expect((await client.get('/api/todo/fetch-todo')).body).toMatchObject({ todos: [] });
  });

  it('a bad file is a 400 listing its problems, relayed as the service said it', async () => {
    const { client } = await signUp(stack.url, { name: 'Bad file' });
    const answer = await client.post('/api/todo/import', { fileName: 'x.csv', content: 'Name,Date\nMilk,today\n' });
    expect(answer.status).toBe(400);
    expect(ImportRefusal.parse(answer.body).problems[0]).toMatchObject({ line: 1, field: 'columns' });
  });
});
