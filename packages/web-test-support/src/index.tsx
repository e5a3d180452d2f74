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

export interface RenderOptions {
  /** Path the router starts at. */
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
          <Route path={route} element={ui} />
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
  return { _id: '0123456789abcdef01234567', title, completed: false, isPinned: false, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
}
