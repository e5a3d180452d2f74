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
}

/**
 * Signs a new user up through the gateway at `baseUrl`, as the app does: a first GET gets the XSRF
 * cookie, the signup sends it back. Throws unless the signup answers 201.
 */
export async function signUp(baseUrl: string, { name, client = new ApiClient(baseUrl) }: SignUpOptions = {}): Promise<SignedUp> {
  const account = newUser(name);
  await client.get('/api/user/me');
  const signup = await client.post<UserResponse>('/api/user/signup', account);
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  return { ...account, client, user: signup.body.user };
}
