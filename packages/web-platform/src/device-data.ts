import { forgetDeviceUser, logFailure } from '@tm/api-client';
import type { QueryClient } from '@tanstack/react-query';

/** Where the page's sync engine is kept on the QueryClient the shell and its remotes share (task-sync.ts). */
export const SYNC = Symbol.for('@tm/web-platform/task-sync');

/** What ending the session needs of the page's engine: stopping it. */
export interface RunningSync {
  stop: () => void;
}

type Holder = QueryClient & { [SYNC]?: RunningSync };

const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';

/**
 * Stops the page's engine and removes every list and queued change kept on this device (PRODUCT §10.3,
 * SECURITY.md "What is kept on the device"): at sign-out, a session ended here or elsewhere, a password change,
 * an account deletion. Changes not sent yet are lost with them: a sign-out with changes waiting asks first.
 */
export async function forgetDeviceTasks(queryClient: QueryClient): Promise<void> {
  const holder = queryClient as Holder;
  holder[SYNC]?.stop();
  holder[SYNC] = undefined;
  forgetDeviceUser();
  if (!hasIndexedDb()) return;
  try {
    const sync = await import('@tm/sync');
    await sync.deleteAllDeviceData();
  } catch (error) {
    logFailure('Removing the tasks kept on this device failed', error);
  }
}

