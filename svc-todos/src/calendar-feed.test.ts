import { ObjectId } from 'bson';
import { CalendarDocument, ErrorBody, ErrorCode, TodoResponse, type Todo } from '@tm/contracts';
import { parseCalendar, signedCall, tempDir, type CallResult } from '@tm/test-support';
import { calendarFeedText, eventRule, eventUid } from './calendar-feed.domain.js';
import { startTestService, type TestService } from './todos.test-helpers.js';

// The calendar feed's text (docs/PRODUCT.md §10.18), read back with Mozilla's iCalendar parser (ical.js): over
// real HTTP against the real service and its SQLite file (GET /internal/todos/calendar, as the gateway calls
// it), and the rules of calendar-feed.domain.ts on plain task records.

describe('GET /internal/todos/calendar (the calendar feed, PRODUCT §10.18)', () => {
  const ALICE = new ObjectId().toHexString();
  const BOB = new ObjectId().toHexString();
  let dir: ReturnType<typeof tempDir>;
  let service: TestService;

  beforeEach(async () => {
    dir = tempDir('svc-todos-calendar-');
    service = await startTestService({ dataDir: dir.dir });
  });
  afterEach(async () => {
    await service.stop();
    dir.remove();
  });

  const call = (method: string, path: string, body?: unknown, userId = ALICE): Promise<CallResult> =>
    signedCall(service.url, { userId, method, path, ...(body === undefined ? {} : { body }) });
  async function add(body: Record<string, unknown>, userId = ALICE): Promise<Todo> {
    const answer = await call('POST', '/todo/add-todo', body, userId);
    expect(answer.status).toBe(201);
    return TodoResponse.parse(answer.body).todo;
  }
  async function feed(query = '', userId = ALICE): Promise<string> {
    const answer = await call('GET', `/internal/todos/calendar${query}`, undefined, userId);
    expect(answer.status).toBe(200);
    return CalendarDocument.parse(answer.body).calendar;
  }

  it("answers the user's open dated tasks as events, all-day or timed, and no other task", async () => {
    const day = await add({ title: 'Pay rent, then; relax 🎉', due: '2027-03-14' });
    const timed = await add({ title: 'Dentist', due: '2027-03-15T09:00' });
    const undated = await add({ title: 'Someday' });
    const done = await add({ title: 'Done already', due: '2027-03-16' });
    expect((await call('PUT', `/todo/update-todo/${done._id}`, { updateData: { completed: true } })).status).toBe(200);
    const gone = await add({ title: 'Deleted', due: '2027-03-17' });
    expect((await call('DELETE', `/todo/delete-todo/${gone._id}`)).status).toBe(200);
    const bobs = await add({ title: "Bob's", due: '2027-03-14' }, BOB);

    const calendar = await parseCalendar(await feed('?timeZone=Europe/Paris'));
    expect(calendar.name).toBe('Task Manager');
    expect(calendar.timeZone).toBe('Europe/Paris');
    expect(calendar.events.map((event) => event.uid).sort()).toEqual([eventUid(day._id), eventUid(timed._id)].sort());
    for (const left of [undated, done, gone, bobs]) expect(() => calendar.event(eventUid(left._id))).toThrow();

    expect(calendar.event(eventUid(day._id))).toMatchObject({ summary: 'Pay rent, then; relax 🎉', allDay: true, start: '2027-03-14', rrule: null });
    // Floating: no zone, no UTC mark, so 09:00 is 09:00 on the calendar's own clock (PRODUCT §10.14).
    expect(calendar.event(eventUid(timed._id))).toMatchObject({
      summary: 'Dentist',
      allDay: false,
      floating: true,
      start: '2027-03-15T09:00:00',
      end: '2027-03-15T09:30:00',
      transparency: 'TRANSPARENT',
    });
  });

  it('writes a repeat as its RRULE, and a repeat from completion with X-TM-REPEAT-FROM as well', async () => {
    const weekly = await add({ title: 'Standup', due: '2027-03-15T09:00', repeat: 'FREQ=WEEKLY;BYDAY=MO' });
    const watering = await add({ title: 'Water the plants', due: '2027-03-14', repeat: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'completion' });
    const calendar = await parseCalendar(await feed());

    const standup = calendar.event(eventUid(weekly._id));
    expect(standup).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=MO', repeatFrom: null });
    expect(standup.occurrences(2)).toEqual(['2027-03-15T09:00:00', '2027-03-22T09:00:00']);
    expect(calendar.event(eventUid(watering._id))).toMatchObject({ allDay: true, rrule: 'FREQ=DAILY;INTERVAL=3', repeatFrom: 'COMPLETION' });
  });

  it('is a calendar without events for a user without dated tasks, and names no zone without one', async () => {
    await add({ title: 'No date' });
    const calendar = await parseCalendar(await feed());
    expect(calendar.events).toEqual([]);
    expect(calendar.timeZone).toBeNull();
  });

  it('refuses a time zone that is no zone name with a 400 naming timeZone, and a call for no user with a 401', async () => {
    const refused = await call('GET', `/internal/todos/calendar?timeZone=${encodeURIComponent('Europe/Paris\r\nX-EVIL:1')}`);
    expect(refused.status).toBe(400);
    expect(ErrorBody.parse(refused.body).issues?.[0]?.path).toEqual(['timeZone']);
    const anonymous = await call('GET', '/internal/todos/calendar', undefined, '');
    expect([anonymous.status, ErrorBody.parse(anonymous.body).code]).toEqual([401, ErrorCode.unauthenticated]);
  });
});

describe('the calendar feed rules (calendar-feed.domain.ts)', () => {
  const task = (fields: Partial<Todo>): Todo => ({
    _id: new ObjectId().toHexString(),
    title: 'Task',
    completed: false,
    isPinned: false,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-02T11:00:00.000Z',
    completedAt: null,
    ...fields,
  });

  it('escapes what iCalendar gives a meaning to, and keeps the title whole through a parser', async () => {
    const titles = ['Commas, semicolons; and \\ backslashes', 'Two\nlines', `Long ${'é'.repeat(120)} title 🎉`];
    const todos = titles.map((title) => task({ title, due: '2027-01-01' }));
    const text = calendarFeedText(todos);
    expect(text).toContain('SUMMARY:Commas\\, semicolons\\; and \\\\ backslashes');
    // Lines are folded at 75 octets, never inside a character.
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const calendar = await parseCalendar(text);
    expect(todos.map((todo) => calendar.event(eventUid(todo._id)).summary)).toEqual(titles);
  });

  it("makes the same text of the same tasks (DTSTAMP and LAST-MODIFIED are the task's update time)", () => {
    const todos = [task({ due: '2027-01-01T08:15' })];
    const text = calendarFeedText(todos);
    expect(text).toBe(calendarFeedText(todos));
    expect(text).toContain('\r\nDTSTAMP:20260102T110000Z\r\n');
    expect(text).toContain('\r\nLAST-MODIFIED:20260102T110000Z\r\n');
  });

  it('gives a timed event ending past midnight the next day', async () => {
    const late = task({ due: '2027-12-31T23:45' });
    expect((await parseCalendar(calendarFeedText([late]))).event(eventUid(late._id)).end).toBe('2028-01-01T00:15:00');
  });

  it("writes UNTIL of the event's own kind, and drops an RRULE: prefix", async () => {
    expect(eventRule('RRULE:FREQ=WEEKLY;BYDAY=MO', false)).toBe('FREQ=WEEKLY;BYDAY=MO');
    expect(eventRule('FREQ=DAILY;UNTIL=20271231', true)).toBe('FREQ=DAILY;UNTIL=20271231');
    expect(eventRule('FREQ=DAILY;UNTIL=20271231T120000Z', true)).toBe('FREQ=DAILY;UNTIL=20271231');
    expect(eventRule('FREQ=DAILY;UNTIL=20271231', false)).toBe('FREQ=DAILY;UNTIL=20271231T235959');
    expect(eventRule('FREQ=DAILY;UNTIL=20271231T120000Z', false)).toBe('FREQ=DAILY;UNTIL=20271231T120000');
    const until = task({ due: '2027-12-01T09:00', repeat: 'FREQ=DAILY;UNTIL=20271203' });
    const occurrences = (await parseCalendar(calendarFeedText([until]))).event(eventUid(until._id)).occurrences(10);
    expect(occurrences).toEqual(['2027-12-01T09:00:00', '2027-12-02T09:00:00', '2027-12-03T09:00:00']);
  });

  it('leaves out a completed task and one without a date, even when handed them', async () => {
    const kept = task({ due: '2027-01-01' });
    const todos = [kept, task({ due: '2027-01-02', completed: true, completedAt: '2026-01-03T00:00:00.000Z' }), task({})];
    expect((await parseCalendar(calendarFeedText(todos))).events.map((event) => event.uid)).toEqual([eventUid(kept._id)]);
  });
});
