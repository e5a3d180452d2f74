import { LIMITS } from '@tm/contracts';
import { PasswordStrength } from '../password-strength/password-strength';
import { TextField, type TextFieldProps } from './text-field';

/** The password rules, shown before the first attempt (docs/PRODUCT.md §10.7); the server applies the same. */
export const PASSWORD_RULES = `Use at least ${LIMITS.password.min} characters.`;

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'autoComplete' | 'required' | 'minLength' | 'maxLength'>;

/**
 * A password the person types to prove it is them (before an account change): required, and not held to the
 * signup rules (a rule changed later must lock nobody out), only to the longest password there can be.
 */
export function CurrentPasswordField(props: PasswordFieldProps) {
  return <TextField type="password" autoComplete="current-password" required maxLength={LIMITS.password.max} {...props} />;
}

interface NewPasswordFieldProps extends Omit<PasswordFieldProps, 'hint' | 'children'> {
  /** What is typed so far, for the strength hint. */
  password: string;
  /** The person's name and email: a password made of them is weak. */
  userInputs: readonly string[];
}

/**
 * A new password (signup, change password): the rules from the start, tied to the field, and the strength
 * hint as it is typed. The browser checks the length; the server judges the password on submit.
 */
export function NewPasswordField({ password, userInputs, ...props }: NewPasswordFieldProps) {
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      required
      minLength={LIMITS.password.min}
      maxLength={LIMITS.password.max}
      hint={PASSWORD_RULES}
      {...props}
    >
      <PasswordStrength password={password} userInputs={userInputs} />
    </TextField>
  );
}
