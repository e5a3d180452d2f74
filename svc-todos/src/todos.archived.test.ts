import { ObjectId } from 'bson';
import { AgendaResponse, CalendarDocument, ListResponse, SearchResponse, TodoResponse, TodosResponse, type TaskList, type Todo } from '@tm/contracts';
import { signedCall, tempDir, type CallResult, type SignedCall } from '@tm/test-support';
import { eventUid } from './calendar-feed.domain.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// An archived list keeps its tasks out of the way (docs/PRODUCT.md §10.19 "Archive"), over real HTTP against the
// real service and its SQLite file: Today and Upcoming, the calendar feed and a search across lists leave its
// tasks out; a search within that list, the task list (fetch-todo) and the bulk calls still hold them; Restore
// brings them back everywhere.

const ALICE = new ObjectId().toHexString();
const TODAY = '2026-12-06';

let dir: ReturnType<typeof tempDir>;
let service: TestService;

beforeEach(async () => {
  dir = tempDir('svc-todos-archived-');
  service = await startTestService({ dataDir: dir.dir });
});
afterEach(async () => {
  await service.stop();
  dir.remove();
});

const call = (request: SignedCall): Promise<CallResult> => signedCall(service.url, { userId: ALICE, ...request });
async function ok<T>(request: SignedCall, schema: { parse: (body: unknown) => T }, status = 200): Promise<T> {
  const answer = await call(request);
  expect([request.path, answer.status]).toEqual([request.path, status]);
  return schema.parse(answer.body);
}
const addList = async (name: string): Promise<TaskList> => (await ok({ method: 'POST', path: '/todo/lists', body: { name } }, ListResponse, 201)).list;
const archive = (list: TaskList, archived: boolean) => ok({ method: 'PUT', path: `/todo/lists/${list._id}`, body: { archived } }, ListResponse);
const add = async (body: Record<string, unknown>): Promise<Todo> => (await ok({ method: 'POST', path: '/todo/add-todo', body }, TodoResponse, 201)).todo;

/** The titles of each read that leaves an archived list's tasks out, and of those that do not. */
async function seen(list: TaskList) {
  const agenda = await ok({ path: `/todo/agenda?today=${TODAY}&days=7` }, AgendaResponse);
  const feed = (await ok({ path: '/internal/todos/calendar' }, CalendarDocument)).calendar;
  const titles = (todos: Todo[]) => todos.map((todo) => todo.title).sort();
  return {
    agenda: titles([...agenda.overdue, ...agenda.days.flatMap((day) => day.todos)]),
    feed: (await ok({ path: '/todo/fetch-todo' }, TodosResponse)).todos.filter((todo) => feed.includes(eventUid(todo._id))).map((todo) => todo.title).sort(),
    search: titles((await ok({ path: '/todo/search?q=pack' }, SearchResponse)).todos),
    searchOpen: titles((await ok({ path: '/todo/search?q=pack&status=active' }, SearchResponse)).todos),
    searchInList: titles((await ok({ path: `/todo/search?q=pack&listId=${list._id}` }, SearchResponse)).todos),
    list: titles((await ok({ path: '/todo/fetch-todo' }, TodosResponse)).todos),
  };
}

it('an archived list’s tasks leave Today, the calendar feed and search across lists, and come back with Restore', async () => {
  const trip = await addList('Trip');
  const work = await addList('Work');
  await add({ title: 'Pack the tent', due: '2026-12-07', listId: trip._id });
  await add({ title: 'Pack the laptop', due: '2026-12-08', listId: work._id });
  await add({ title: 'Pack lunch', due: '2026-12-06' });
  const before = await seen(trip);
  const everything = ['Pack lunch', 'Pack the laptop', 'Pack the tent'];
  expect(before).toEqual({ agenda: everything, feed: everything, search: everything, searchOpen: everything, searchInList: ['Pack the tent'], list: everything });

  await archive(trip, true);
  const outside = ['Pack lunch', 'Pack the laptop'];
  expect(await seen(trip)).toEqual({ agenda: outside, feed: outside, search: outside, searchOpen: outside, searchInList: ['Pack the tent'], list: everything });

  await archive(trip, false);
  expect(await seen(trip)).toEqual(before);
});
