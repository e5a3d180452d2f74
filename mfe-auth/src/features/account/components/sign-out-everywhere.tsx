import { useState } from 'react';
import { useSignOutEverywhere } from '../api/account';
import { ConfirmDialog } from './confirm-dialog';
import { useOneAtATime } from './use-one-at-a-time';

export const SIGN_OUT_EVERYWHERE_QUESTION = 'Sign out of all devices?';
export const SIGN_OUT_EVERYWHERE_CONSEQUENCE = 'You will be signed out on every device and browser, this one included.';

/**
 * "Sign out everywhere" (docs/PRODUCT.md §10.10): the button asks first, in a dialog (one click
 * ended every session). Only its "Sign out everywhere" sends the request; then every session of the account
 * ends, this one included (as after a logout). A failure closes the dialog and is toasted.
 */
export function SignOutEverywhere() {
  const { mutateAsync, isPending } = useSignOutEverywhere();
  const once = useOneAtATime();
  const [confirming, setConfirming] = useState(false);

  function onConfirm() {
    once(() => mutateAsync(undefined, { onError: () => setConfirming(false) }));
  }

  return (
    <>
      <button type="button" className="account-button" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </button>
      {confirming && (
        <ConfirmDialog
          title={SIGN_OUT_EVERYWHERE_QUESTION}
          description={SIGN_OUT_EVERYWHERE_CONSEQUENCE}
          confirmLabel="Sign out everywhere"
          pendingLabel="Signing out…"
          pending={isPending}
          danger={false}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
