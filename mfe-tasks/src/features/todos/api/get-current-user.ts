import { currentUserQuery } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';

/** The signed-in user's full name, read from the cache the shell filled (`['user','me']`). */
export function useFullName(): string | undefined {
  return useQuery({ ...currentUserQuery(), select: (user) => user?.fullName }).data;
}

