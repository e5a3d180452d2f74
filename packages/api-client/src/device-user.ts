import type { PublicUser } from '@tm/contracts';
import EARLY_OPTIONS from './early-options.json';

/**
 * The signed-in person as this device last saw them (docs/PRODUCT.md §10.4): kept while their tasks are kept on
 * the device, so a page opened offline starts as them, on the device's copy of their list, instead of saying
 * the server cannot be reached. Removed with the device's tasks (SECURITY.md "What is kept on the device").
 */
export const DEVICE_USER_KEY = EARLY_OPTIONS.deviceUserKey;

/** The person's screen kept to paint at once on the next visit (early-store.ts `KeptScreen`): it goes with them. */
export const KEPT_SCREEN_KEY = EARLY_OPTIONS.keptScreenKey;

const FROM_DEVICE = Symbol.for('@tm/api-client/user-from-device');
type Holder = typeof globalThis & { [FROM_DEVICE]?: boolean };

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Keeps who is signed in, for an offline start (only their id, name and email). */
export function rememberDeviceUser(user: PublicUser): void {
  try {
    // Another person's kept screen never stays (SECURITY.md "What is kept on the device").
    if (deviceUser()?._id !== user._id) storage()?.removeItem(KEPT_SCREEN_KEY);
    storage()?.setItem(DEVICE_USER_KEY, JSON.stringify({ _id: user._id, fullName: user.fullName, email: user.email }));
  } catch {
    // Storage full or refused: an offline start then says the server cannot be reached, as before.
  }
}

/** Forgets who was signed in on this device, and the screen kept for them. */
export function forgetDeviceUser(): void {
  try {
    storage()?.removeItem(DEVICE_USER_KEY);
    storage()?.removeItem(KEPT_SCREEN_KEY);
  } catch {
    // Nothing kept.
  }
}

/** The person kept on this device, or null. */
export function deviceUser(): PublicUser | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(DEVICE_USER_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { _id, fullName, email } = value as Record<string, unknown>;
    return typeof _id === 'string' && typeof fullName === 'string' && typeof email === 'string' ? { _id, fullName, email } : null;
  } catch {
    return null;
  }
}

/** Marks whether the current user was taken from the device (no answer from the server): checked again once online. */
export function markUserFromDevice(value: boolean): void {
  (globalThis as Holder)[FROM_DEVICE] = value;
}

/** Whether the current user came from the device and still needs the server's word. */
export function userFromDevice(): boolean {
  return (globalThis as Holder)[FROM_DEVICE] === true;
}
