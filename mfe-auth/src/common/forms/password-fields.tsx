import { LIMITS } from '@tm/contracts';
import { PasswordStrength } from '../password-strength/password-strength';
import { verdictNow } from '../password-strength/use-password-strength';
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
 * hint as it is typed. The browser checks the length; the form refuses what the hint calls refused
 * (`refusedPassword`), and the server judges the rest on submit. A refusal is said once, at the field.
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
      <PasswordStrength password={password} userInputs={userInputs} fieldError={props.error} />
    </TextField>
  );
}

/**
 * Why `password` will be refused, when the strength hint already knows (its policy has arrived and says
 * so): the form then says it at the field and sends nothing (issue #18). Undefined otherwise.
 */
export function refusedPassword(password: string, userInputs: readonly string[]): string | undefined {
  const verdict = verdictNow(password, userInputs);
  return verdict && !verdict.acceptable ? verdict.message : undefined;
}
