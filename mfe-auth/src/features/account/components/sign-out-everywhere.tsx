import { useSignOutEverywhere } from '../api/account';
import { useOneAtATime } from './use-one-at-a-time';

/** "Sign out everywhere": every session of the account ends, this one included (then as after a logout). */
export function SignOutEverywhere() {
  const { mutateAsync, isPending } = useSignOutEverywhere();
  const once = useOneAtATime();
  return (
    <button type="button" className="account-button" aria-disabled={isPending || undefined} onClick={() => once(() => mutateAsync())}>
      {isPending ? 'Signing out…' : 'Sign out everywhere'}
    </button>
  );
}
