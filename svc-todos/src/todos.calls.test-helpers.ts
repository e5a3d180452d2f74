import { ErrorBody, ErrorCode, HistoryResponse, StreamPosition, TodoChangeEvent, TodoResponse, TodosResponse, UpdateTodoResponse, type Todo } from '@tm/contracts';
import { signedCall, type CallResult, type SignedCall } from '@tm/test-support';
import { openEventStream, type EventStreamClient } from './todos.test-helpers.js';

// The calls a service test over real HTTP makes of one person's tasks (docs/PRODUCT.md §7, §10.4, §10.11.5):
// each answer's status checked and its body parsed by the contracts, so a test reads as what it asserts.

/** What `taskCalls` gives a test: the person's calls, and where their streams are kept to be closed. */
export interface TaskCalls {
  call: (request: SignedCall) => Promise<CallResult>;
  list: () => Promise<TodosResponse>;
  addCall: (body: Record<string, unknown>) => Promise<CallResult>;
  /** Adds a task; a 201 is expected. */
  add: (body: Record<string, unknown>) => Promise<Todo>;
  updateCall: (id: string, updateData: Record<string, unknown>) => Promise<CallResult>;
  /** Updates a task; a 200 is expected. */
  update: (id: string, updateData: Record<string, unknown>) => Promise<UpdateTodoResponse>;
  /** A task's history, newest first, each entry as [field, before, after]. */
  history: (id: string) => Promise<unknown[][]>;
  /** Opens the person's live stream and waits for its `ready`. */
  openReady: () => Promise<EventStreamClient>;
  /** Closes every stream openReady opened. */
  closeStreams: () => void;
}

/** The calls of person `userId` to the service at `url()` (read at each call: a test's service starts anew each time). */
export function taskCalls(url: () => string, userId: string): TaskCalls {
  const streams: EventStreamClient[] = [];
  const call = (request: SignedCall) => signedCall(url(), { userId, ...request });
  const addCall = (body: Record<string, unknown>) => call({ method: 'POST', path: '/todo/add-todo', body });
  const updateCall = (id: string, updateData: Record<string, unknown>) => call({ method: 'PUT', path: `/todo/update-todo/${id}`, body: { updateData } });
  return {
    call,
    list: async () => TodosResponse.parse((await call({ path: '/todo/fetch-todo' })).body),
    addCall,
    add: async (body) => {
      const answer = await addCall(body);
      expect([answer.status, answer.body]).toEqual([201, expect.anything()]);
      return TodoResponse.parse(answer.body).todo;
    },
    updateCall,
    update: async (id, updateData) => {
      const answer = await updateCall(id, updateData);
      expect([answer.status, answer.body]).toEqual([200, expect.anything()]);
      return UpdateTodoResponse.parse(answer.body);
    },
    history: async (id) => HistoryResponse.parse((await call({ path: `/todo/history/${id}` })).body).entries.map(({ field, before, after }) => [field, before, after]),
    openReady: async () => {
      const stream = await openEventStream(url(), { userId });
      streams.push(stream);
      expect(stream.status).toBe(200);
      for (;;) {
        const frame = await stream.nextEvent();
        if (frame.event === 'ready') {
          StreamPosition.parse(JSON.parse(frame.data));
          return stream;
        }
      }
    },
    closeStreams: () => {
      for (const stream of streams.splice(0)) stream.close();
    },
  };
}

/** The next frame of `stream`, a change event (within 3 s). */
export async function nextChange(stream: EventStreamClient): Promise<TodoChangeEvent> {
  const frame = await stream.nextEvent(3_000);
  expect(frame.event).toBe('change');
  return TodoChangeEvent.parse(JSON.parse(frame.data));
}

/** A 400's issues, each as its path joined with dots and its message. */
export function refusal(answer: CallResult): { path: string; message: string }[] {
  expect(answer.status).toBe(400);
  const body = ErrorBody.parse(answer.body);
  expect(body.code).toBe(ErrorCode.validation);
  return (body.issues ?? []).map(({ path, message }) => ({ path: path.join('.'), message }));
}
