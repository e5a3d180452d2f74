import type { LoginRequest, LogoutResponse, PublicUser, SignupRequest, UserResponse } from '@tm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { errorMessage, http } from './http.js';

/**
 * The current user, or `null` when signed out. SPEC §7: on failure the message is logged and the user is
 * treated as signed out; never retried.
 */
export async function fetchCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<PublicUser | null> {
  try {
    const { data } = await http.get<UserResponse>('/user/me', { signal });
    return data.user;
  } catch (error) {
    console.info(errorMessage(error, 'Could not check the current user'));
    return null;
  }
}

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['user', 'me'] as const,
    queryFn: fetchCurrentUser,
    retry: false,
  });

export async function login(body: LoginRequest): Promise<UserResponse> {
  return (await http.post<UserResponse>('/user/login', body)).data;
}

export async function signup(body: SignupRequest): Promise<UserResponse> {
  return (await http.post<UserResponse>('/user/signup', body)).data;
}

export async function logout(): Promise<LogoutResponse> {
  return (await http.post<LogoutResponse>('/user/logout')).data;
}
