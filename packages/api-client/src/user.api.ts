import { ROUTES, type LoginRequest, type LogoutResponse, type PublicUser, type SignupRequest, type UserResponse } from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { deviceUser, markUserFromDevice } from './device-user.js';
import { isOffline, logFailure, sessionEndReason, statusOf } from './errors.js';
import { call } from './http.js';
import { rememberSessionEnd } from './session-end.js';

/**
 * The current user, or `null` when signed out. Only a 401 means signed out (docs/PRODUCT.md §10.1): a
 * network error, a timeout or a 5xx is thrown, so the app can say it cannot reach the server instead of
 * sending a signed-in person to the sign-in screen. A 401 is how a visitor is told apart, not a failure:
 * nothing is logged; when it says why a session of this browser ended (its cookie named one),
 * the sign-in screen is told. Other failures are logged (logFailure).
 */
export async function fetchCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<PublicUser | null> {
  try {
    const { user } = await call(ROUTES.me, { signal });
    markUserFromDevice(false);
    return user;
  } catch (error) {
    if (statusOf(error) === 401) {
      const reason = sessionEndReason(error);
      if (reason) rememberSessionEnd(reason);
      return null;
    }
    // No answer at all (offline, a network that does not carry): the person whose tasks this device keeps
    // goes on with them (PRODUCT §10.4); the server is asked again once the network is back.
    const kept = isOffline(error) || (statusOf(error) === undefined && !signal?.aborted) ? deviceUser() : null;
    if (kept) {
      markUserFromDevice(true);
      return kept;
    }
    logFailure('Could not check the current user', error);
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
