import { currentUserQuery, personTimeZone } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';

/** The signed-in user's full name, read from the cache the shell filled (`['user','me']`). */
export function useFullName(): string | undefined {
  return useQuery({ ...currentUserQuery(), select: (user) => user?.fullName }).data;
}

/** The signed-in person's time zone (docs/PRODUCT.md §10.14): the account's, else this browser's. */
export function usePersonTimeZone(): string {
  return personTimeZone(useQuery({ ...currentUserQuery(), select: (user) => user }).data);
}
