import { usePasswordStrength } from './use-password-strength';
import './password-strength.css';

const STEPS = [0, 1, 2, 3, 4] as const;

interface PasswordStrengthProps {
  password: string;
  /** The person's name and email: a password made of them is weak. */
  userInputs?: readonly string[];
  /** What the field already says is wrong: the hint does not say it a second time. */
  fieldError?: string;
}

/**
 * The strength hint under a new password (signup, change password; PRODUCT §10.10): a five-step meter, "Strength: <label>"
 * and the policy's advice, in a polite live region that is always in the page, so a screen reader announces
 * a change of verdict without interrupting the typing. Nothing shows before the first keystroke. Advice the
 * field's own error already gives (a refused password) is said there only.
 */
export function PasswordStrength({ password, userInputs, fieldError }: PasswordStrengthProps) {
  const verdict = usePasswordStrength(password, userInputs);
  return (
    <div className="auth-strength" aria-live="polite" aria-atomic="true">
      {verdict && (
        <>
          <div className="auth-strength__meter" data-score={verdict.score} aria-hidden="true">
            {STEPS.map((step) => (
              <span key={step} className="auth-strength__step" data-on={step <= verdict.score || undefined} />
            ))}
          </div>
          <p className="auth-strength__label">Strength: {verdict.label}</p>
          {verdict.message && verdict.message !== fieldError && <p className="auth-strength__message">{verdict.message}</p>}
        </>
      )}
    </div>
  );
}
