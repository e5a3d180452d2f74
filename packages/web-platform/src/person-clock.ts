import { currentUserQuery, personTimeZone } from '@tm/api-client';
import { useQuery } from '@tanstack/react-query';
import { setPersonTimeZone } from './due-text.js';

/**
 * Reads due dates on the signed-in person's own clock (docs/PRODUCT.md §10.14): the account's time zone, else
 * this browser's. A screen that shows due dates calls it first, so the rows below it read the right "today".
 */
export function usePersonClock(): string {
  const zone = personTimeZone(useQuery({ ...currentUserQuery(), select: (user) => user }).data);
  setPersonTimeZone(zone);
  return zone;
}
