// No Node-only API and no zod here: the browser loads this package as a lazy chunk (dynamic import()).
import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** zxcvbn's score: 0 and 1 mean fewer than 10^6 guesses (online attack territory), 4 more than 10^10. */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordVerdict {
  /** false when the password must be refused (common, breached or trivially guessable). */
  acceptable: boolean;
  score: PasswordScore;
  /** 'Very weak' | 'Weak' | 'Fair' | 'Good' | 'Strong' */
  label: string;
  /** One plain sentence for people: why it is refused, or a tip; '' when there is nothing to say. */
  message: string;
}

/** The one message for a refused password, on the server (validation issue) and in the browser alike. */
export const WEAK_PASSWORD_MESSAGE = 'This password is too common or easy to guess. Try a longer one, for example a few unrelated words.';

/** Tip for a password that is accepted but only just (score 2). */
const FAIR_PASSWORD_TIP = 'A longer password, such as a few unrelated words, would be stronger.';

const LABELS: Record<PasswordScore, string> = { 0: 'Very weak', 1: 'Weak', 2: 'Fair', 3: 'Good', 4: 'Strong' };

/** Below this score a password is refused: zxcvbn's 0 and 1 are under 10^6 guesses (NIST SP 800-63B §5.1.1.2). */
const MIN_ACCEPTABLE_SCORE = 2;

/**
 * Only this many characters (code points) are evaluated: zxcvbn's matching grows fast with length, and a
 * password whose first 100 characters are strong is not made weak by the rest.
 */
const EVALUATED_CHARACTERS = 100;

/** Pieces of a user input worth matching on their own: the words of a name, the parts of an email. */
const INPUT_SEPARATORS = /[\s@._+-]+/u;
const MIN_INPUT_PIECE = 3;

let configured = false;

/** zxcvbn's options are global to the module; set them once, on first use (importing costs nothing). */
function configure(): void {
  if (configured) return;
  zxcvbnOptions.setOptions({
    dictionary,
    graphs: adjacencyGraphs,
    // Levenshtein matching (near misses such as "passwrod1") is left off: it scans every dictionary entry on
    // each call (~70 ms on the dev machine), too slow to run as the person types; l33t, reversed, repeated,
    // sequence and keyboard patterns are still matched.
    useLevenshteinDistance: false,
  });
  // @zxcvbn-ts/language-common ships no translations; its feedback is never shown (messages are ours).
  configured = true;
}

/** The inputs, run together and in pieces (words of a name, parts of an email), lower-cased, without duplicates. */
function contextWords(userInputs: readonly string[]): string[] {
  const words = new Set<string>();
  for (const input of userInputs) {
    const whole = input.trim().toLowerCase();
    if (whole.length === 0) continue;
    words.add(whole);
    // "Ada Lovelace" is typed "adalovelace" in a password.
    words.add(whole.replace(/\s+/gu, ''));
    for (const piece of whole.split(INPUT_SEPARATORS)) {
      if (piece.length >= MIN_INPUT_PIECE) words.add(piece);
    }
  }
  return [...words];
}

/** Same verdict on the server and in the browser. userInputs: the user's name and email (context words, NIST 800-63B). */
export function assessPassword(password: string, userInputs: readonly string[] = []): PasswordVerdict {
  configure();
  // Cut by code points (never inside a surrogate pair); the synchronous zxcvbn() ignores its own maxLength.
  const evaluated = Array.from(password).slice(0, EVALUATED_CHARACTERS).join('');
  // Always an array, even empty: zxcvbn keeps the user inputs of the previous call when given none.
  const { score } = zxcvbn(evaluated, contextWords(userInputs));
  const acceptable = score >= MIN_ACCEPTABLE_SCORE;
  const message = !acceptable ? WEAK_PASSWORD_MESSAGE : score === MIN_ACCEPTABLE_SCORE ? FAIR_PASSWORD_TIP : '';
  return { acceptable, score, label: LABELS[score], message };
}
