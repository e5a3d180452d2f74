import type { PasswordVerdict } from '@tm/password-policy';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';

type Assess = (password: string, userInputs?: readonly string[]) => PasswordVerdict;

let policy: Promise<Assess> | undefined;
/** The policy once it has arrived. */
let loaded: Assess | undefined;

/**
 * Loads @tm/password-policy once, the first time someone types a password: it carries a large dictionary,
 * so it is a chunk of its own, out of the first load. A failed load is forgotten, so the next keystroke of a
 * later form tries again.
 */
function loadPolicy(): Promise<Assess> {
  policy ??= import('@tm/password-policy').then(
    (module) => {
      loaded = module.assessPassword;
      return loaded;
    },
    (error: unknown) => {
      policy = undefined;
      throw error;
    },
  );
  return policy;
}

/**
 * Starts loading the policy before anything is typed (the new-password field got the focus), so its first
 * verdict comes with the first keystrokes instead of after them. A failure is left to the hint's own load.
 */
export function preloadPasswordPolicy(): void {
  loadPolicy().catch(() => undefined);
}

/**
 * The policy's verdict on `password` right now, if the policy has arrived (it has once the hint showed a
 * verdict): what a form checks on submit, so that a password the hint already calls refused is not sent.
 * Undefined before that: the server judges it then.
 */
export function verdictNow(password: string, userInputs: readonly string[] = []): PasswordVerdict | undefined {
  return loaded && password ? loaded(password, userInputs) : undefined;
}

/**
 * The policy's verdict on `password` (with the user's name and email as context words), or undefined while
 * nothing is typed or the policy is still loading. A hint only: typing is never blocked (the verdict follows
 * the typing, deferred), and the server judges the password on submit.
 */
export function usePasswordStrength(password: string, userInputs: readonly string[] = []): PasswordVerdict | undefined {
  const [assess, setAssess] = useState<Assess>();
  const typed = password.length > 0;
  useEffect(() => {
    if (!typed || assess) return;
    let mounted = true;
    loadPolicy().then(
      (loaded) => {
        if (mounted) setAssess(() => loaded);
      },
      (error: unknown) => console.warn('The password strength hint could not be loaded', error),
    );
    return () => {
      mounted = false;
    };
  }, [typed, assess]);

  const deferred = useDeferredValue(password);
  const inputs = userInputs.join('\n');
  return useMemo(() => (assess && deferred ? assess(deferred, inputs.split('\n')) : undefined), [assess, deferred, inputs]);
}
