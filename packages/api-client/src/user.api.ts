import { ROUTES, type LoginRequest, type LogoutResponse, type PublicUser, type SignupRequest, type UserResponse } from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { errorMessage, statusOf } from './errors.js';
import { call } from './http.js';

/**
 * The current user, or `null` when signed out. Only a 401 means signed out (docs/PRODUCT.md §10.1): a
 * network error, a timeout or a 5xx is thrown, so the app can say it cannot reach the server instead of
 * sending a signed-in person to the sign-in screen. The message is logged either way (PRODUCT §7).
 */
export async function fetchCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<PublicUser | null> {
  try {
    return (await call(ROUTES.me, { signal })).user;
  } catch (error) {
    console.info(errorMessage(error, 'Could not check the current user'));
    if (statusOf(error) === 401) return null;
    throw error;
  }
}

/**
 * `['user','me']`, never retried (PRODUCT §9). Fresh until something says otherwise (sign-in, sign-out, a
 * 401, another tab): it is fetched once per page load, not again by every component that reads it, and a
 * failed check is not re-run by a component mounting (only by an explicit retry or the network coming back).
 */
export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['user', 'me'] as const,
    queryFn: fetchCurrentUser,
    retry: false,
    retryOnMount: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export async function login(body: LoginRequest): Promise<UserResponse> {
  return call(ROUTES.login, { body });
}

export async function signup(body: SignupRequest): Promise<UserResponse> {
  return call(ROUTES.signup, { body });
}

export async function logout(): Promise<LogoutResponse> {
  return call(ROUTES.logout);
}
