import { describeError, fieldIssues } from '@tm/api-client';
import { useCallback, useEffect, useRef, useState } from 'react';

/** What went wrong with a form, placed where the person will look: by field, or for the whole form. */
export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

/** A failure that concerns one field although the server named none (a taken email, a wrong password). */
export interface FieldOwner<F extends string> {
  field: F;
  /** Whether `error` is this field's. */
  owns: (error: unknown) => boolean;
  /** Shown when the answer carries no message. */
  fallback: string;
}

/**
 * Sorts the server's answer to a failed form (docs/PRODUCT.md §10.7): each issue goes to its field, a failure
 * that an owner claims to that field, anything else (offline, timeout, server down) to the form, in the
 * platform's words (describeError), or `fallback` when the server said nothing usable.
 */
export function formErrors<F extends string>(error: unknown, fields: readonly F[], fallback: string, owners: readonly FieldOwner<F>[] = []): FormErrors<F> {
  const errors: FormErrors<F> = {};
  for (const { path, message } of fieldIssues(error)) {
    const field = path[0] as F;
    if (fields.includes(field)) errors[field] ??= message;
  }
  for (const owner of owners) if (owner.owns(error)) errors[owner.field] ??= describeError(error, owner.fallback);
  if (Object.keys(errors).length === 0) errors.form = describeError(error, fallback);
  return errors;
}

/**
 * The errors a form shows, and where the focus goes: after a refused attempt, to the first field to fix, so
 * its message is read out with it. An error stays until its field changes (`clear`), PRODUCT §10.7.
 */
export function useFormErrors<F extends string>() {
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const form = useRef<HTMLFormElement>(null);
  const refused = useRef(false);

  useEffect(() => {
    if (!refused.current) return;
    refused.current = false;
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const refuse = useCallback((next: FormErrors<F>) => {
    refused.current = true;
    setErrors(next);
  }, []);
  const reset = useCallback(() => setErrors({}), []);
  const clear = useCallback((field: F) => () => setErrors(({ [field]: _changed, ...rest }) => rest as FormErrors<F>), []);

  return { errors, form, refuse, reset, clear };
}
