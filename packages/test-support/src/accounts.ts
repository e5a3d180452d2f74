import type { PublicUser, UserResponse } from '@tm/contracts';
import { ApiClient } from './api-client.js';

export interface NewUser {
  fullName: string;
  email: string;
  password: string;
}

let counter = 0;

/** A unique, valid signup payload (unique across the processes of one test run too). */
export function newUser(fullName = 'Test User'): NewUser {
  counter += 1;
  return { fullName, email: `user${Date.now()}-${process.pid}-${counter}@example.com`, password: 'correct horse battery' };
}

export interface SignedUp extends NewUser {
  /** Signed in as the new user (session and XSRF cookies). */
  client: ApiClient;
  user: PublicUser;
}

export interface SignUpOptions {
  /** Full name of the new user. */
  name?: string;
  /** The client to sign in (a fresh one by default). */
  client?: ApiClient;
  /**
   * How many times to try (default 1). A benchmark on a busy machine passes more: a password hash can outlast
   * the gateway's upstream timeout, and a signup answered 5xx stored nothing, so it is sent again.
   */
  attempts?: number;
}

/**
 * Signs a new user up through the gateway at `baseUrl`, as the app does: a first GET gets the XSRF
 * cookie, the signup sends it back. Throws unless the signup answers 201.
 */
export async function signUp(baseUrl: string, { name, client = new ApiClient(baseUrl), attempts = 1 }: SignUpOptions = {}): Promise<SignedUp> {
  const account = newUser(name);
  await client.get('/api/user/me');
  for (let attempt = 1; ; attempt += 1) {
    const signup = await client.post<UserResponse>('/api/user/signup', account);
    if (signup.status === 201) return { ...account, client, user: signup.body.user };
    if (attempt >= attempts || signup.status < 500) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  }
}

/**
 * Makes `count` lists (PRODUCT §10.19) for the signed-in `client`, named "List 1" … in that order, coloured in
 * turn; resolves their ids in order. Throws on any answer but 201.
 */
export async function addLists(client: ApiClient, count: number): Promise<string[]> {
  const colours = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'];
  const ids: string[] = [];
  for (let n = 1; n <= count; n += 1) {
    const answer = await client.post<{ list: { _id: string } }>('/api/todo/lists', { name: `List ${n}`, colour: colours[(n - 1) % colours.length] });
    if (answer.status !== 201) throw new Error(`create list answered ${answer.status}`);
    ids.push(answer.body.list._id);
  }
  return ids;
}

/**
 * Adds `count` tasks for the signed-in `client`, `concurrency` requests at a time, titled by `title(n)` (1 to
 * `count`, in the order sent), due on `due(n)` where it gives a date (PRODUCT §10.14), in list `listId(n)`
 * where it gives one (§10.19). Throws on any answer but 201.
 */
export async function addTodos(
  client: ApiClient,
  count: number,
  {
    concurrency = 16,
    title = (n: number) => `Task number ${n} of ${count}`,
    due = () => undefined,
    repeat = () => undefined,
    listId = () => undefined,
  }: {
    concurrency?: number;
    title?: (n: number) => string;
    due?: (n: number) => string | undefined;
    repeat?: (n: number) => string | undefined;
    listId?: (n: number) => string | undefined;
  } = {},
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const dueDate = due(next);
      const rule = dueDate === undefined ? undefined : repeat(next);
      const list = listId(next);
      const answer = await client.post('/api/todo/add-todo', {
        title: title(next),
        ...(dueDate === undefined ? {} : { due: dueDate }),
        ...(rule === undefined ? {} : { repeat: rule }),
        ...(list === undefined ? {} : { listId: list }),
      });
      if (answer.status !== 201) throw new Error(`add-todo answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
