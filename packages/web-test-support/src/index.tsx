import { currentUserQuery, fetchCurrentUser, signup, type PublicUser, type Todo } from '@tm/api-client';
import { createQueryClient, PlatformProviders } from '@tm/web-platform';
import type { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

/** The production QueryClient setup (@tm/web-platform): tests run with the settings users get. */
export function testQueryClient(): QueryClient {
  return createQueryClient();
}

interface RenderOptions {
  /** Address the router starts at; it may carry a query string (`/?filter=active`). */
  route?: string;
  /** Extra routes next to the page, e.g. `{ '/login': <p>login page</p> }`, to observe navigation. */
  routes?: Record<string, ReactElement>;
  queryClient?: QueryClient;
}

/** Renders `ui` at `route` inside the providers the shell gives a remote: the web platform's and a router. */
export function renderPage(ui: ReactElement, { route = '/', routes = {}, queryClient = testQueryClient() }: RenderOptions = {}): RenderResult & {
  queryClient: QueryClient;
} {
  const result = render(
    <PlatformProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={route.split(/[?#]/)[0]} element={ui} />
          {Object.entries(routes).map(([path, element]) => (
            <Route key={path} path={path} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </PlatformProviders>,
  );
  return { ...result, queryClient };
}

let counter = 0;

/** Unique signup details for one test. */
export function newAccount(fullName = 'Test User'): { fullName: string; email: string; password: string } {
  counter += 1;
  return { fullName, email: `web-${Date.now()}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'correct horse battery' };
}

/**
 * Signs a new user up on the real test gateway (jsdom's origin), exactly as the app would: the first
 * GET issues the XSRF cookie, the signup carries it back. Cookies stay in this test file's jsdom.
 */
export async function signUpNewUser(fullName?: string): Promise<PublicUser & { password: string }> {
  const account = newAccount(fullName);
  await fetchCurrentUser();
  const { user } = await signup(account);
  return { ...user, password: account.password };
}

export { currentUserQuery };

/** A task as a cache might hold it, for tests that check what is dropped or kept (never sent anywhere). */
export function cachedTodo(title = 'seen before'): Todo {
  return { _id: '0123456789abcdef01234567', title, completed: false, completedAt: null, isPinned: false, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
}

/**
 * A stand-in for the browser's EventSource (jsdom has none), driven by the test as the server would drive a
 * stream: `emit` sends an event, `drop` loses the connection (the browser would reconnect), `refuse` is an
 * answer that is not a stream (the browser gives up). `install()` puts it on the global object.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every stream opened since the last install, oldest first. */
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials = false;
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }

  /** The stream opened last. */
  static latest(): FakeEventSource | undefined {
    return FakeEventSource.instances.at(-1);
  }

  /** Installs it as `EventSource`; returns the function that puts the previous one back. */
  static install(): () => void {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'EventSource');
    FakeEventSource.instances = [];
    Object.defineProperty(globalThis, 'EventSource', { configurable: true, writable: true, value: FakeEventSource });
    return () => {
      for (const source of FakeEventSource.instances) source.close();
      if (saved) Object.defineProperty(globalThis, 'EventSource', saved);
      else delete (globalThis as { EventSource?: unknown }).EventSource;
    };
  }

  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server sends `event: <type>` with `data` (as JSON unless a string) and `id`. */
  emit(type: string, data: unknown, id?: string): void {
    if (this.closed) throw new Error(`the stream ${this.url} is closed`);
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId: id ?? '' }));
  }

  /** The connection dropped: the browser reconnects by itself. */
  drop(): void {
    this.readyState = FakeEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
  }

  /** The answer was not a stream (401, 429, 503…): the browser gives up on this EventSource. */
  refuse(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
}
