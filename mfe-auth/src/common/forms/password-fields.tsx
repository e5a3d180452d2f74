import { LIMITS } from '@tm/contracts';
import { PasswordStrength } from '../password-strength/password-strength';
import { preloadPasswordPolicy, verdictNow } from '../password-strength/use-password-strength';
import { PasswordField, type PasswordFieldProps } from './password-field';

/** The password rules, shown before the first attempt (docs/PRODUCT.md §10.7); the server applies the same. */
export const PASSWORD_RULES = `Use at least ${LIMITS.password.min} characters.`;

type PasswordRulesProps = Omit<PasswordFieldProps, 'autoComplete' | 'required' | 'minLength' | 'maxLength'>;

/**
 * A password the person types to prove it is them (signing in, before an account change): required, and not
 * held to the signup rules (a rule changed later must lock nobody out), only to the longest password there
 * can be. It can be shown while typed (PasswordField).
 */
export function CurrentPasswordField(props: PasswordRulesProps) {
  return <PasswordField autoComplete="current-password" required maxLength={LIMITS.password.max} {...props} />;
}

interface NewPasswordFieldProps extends Omit<PasswordRulesProps, 'hint' | 'children'> {
  /** What is typed so far, for the strength hint. */
  password: string;
  /** The person's name and email: a password made of them is weak. */
  userInputs: readonly string[];
}

/**
 * A new password (signup, change password, reset): the rules from the start, tied to the field, and the
 * strength hint as it is typed. The browser checks the length; the form refuses what the hint calls refused
 * (`refusedPassword`), and the server judges the rest on submit. A refusal is said once, at the field. The
 * hint's policy starts loading when the field gets the focus, so the verdict comes with the typing, not
 * after it, and the hint's first lines have their room from the start: nothing below moves when it comes.
 */
export function NewPasswordField({ password, userInputs, onFocus, ...props }: NewPasswordFieldProps) {
  return (
    <PasswordField
      autoComplete="new-password"
      required
      minLength={LIMITS.password.min}
      maxLength={LIMITS.password.max}
      hint={PASSWORD_RULES}
      onFocus={(event) => {
        preloadPasswordPolicy();
        onFocus?.(event);
      }}
      {...props}
    >
      <PasswordStrength password={password} userInputs={userInputs} fieldError={props.error} />
    </PasswordField>
  );
}

/**
 * Why `password` will be refused, when the strength hint already knows (its policy has arrived and says
 * so): the form then says it at the field and sends nothing. Undefined otherwise.
 */
export function refusedPassword(password: string, userInputs: readonly string[]): string | undefined {
  const verdict = verdictNow(password, userInputs);
  return verdict && !verdict.acceptable ? verdict.message : undefined;
}
