/**
 * A failure of a whole form (offline, timeout, server down: nothing to do with one field), at the top of
 * the form, announced when it appears (docs/PRODUCT.md §8, §10.7). Nothing without a message.
 */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="auth-form__error" role="alert">
      {message}
    </p>
  );
}
