import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { assessPassword, WEAK_PASSWORD_MESSAGE, type PasswordVerdict } from './index.js';

const ADA = ['Ada Lovelace', 'ada.lovelace@example.com'];
const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'];

/** A fixed-seed generator (pure-rand), so the "random" passwords are the same on every run. */
function seededRandom(seed: number): () => number {
  const rng = xoroshiro128plus(seed);
  return () => uniformFloat64(rng);
}

function randomPassword(length: number, alphabet: string, seed: number): string {
  const characters = Array.from(alphabet);
  const random = seededRandom(seed);
  return Array.from({ length }, () => characters[Math.floor(random() * characters.length)]).join('');
}

const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%&*+-=?';
const MIXED_UNICODE = `${ASCII}éèàüößñçЖжЯяΩλπ中文字日本語한국어😀🙂🚀🎉`;

function expectRefused(verdict: PasswordVerdict): void {
  expect(verdict).toEqual({ acceptable: false, score: expect.any(Number), label: expect.any(String), message: WEAK_PASSWORD_MESSAGE });
  expect(verdict.score).toBeLessThanOrEqual(1);
  expect(verdict.label).toBe(LABELS[verdict.score]);
}

function expectAccepted(verdict: PasswordVerdict): void {
  expect(verdict.acceptable).toBe(true);
  expect(verdict.score).toBeGreaterThanOrEqual(2);
  expect(verdict.label).toBe(LABELS[verdict.score]);
}

describe('assessPassword', () => {
  it.each(['password123', '12345678', 'qwertyuiop', 'aaaaaaaa', 'iloveyou', 'p@ssw0rd', 'Password1!'])(
    'refuses the common or trivial %s',
    (password) => {
      expectRefused(assessPassword(password));
    },
  );

  it("refuses the user's own email, name or a variation of them", () => {
    expectRefused(assessPassword('ada.lovelace@example.com', ADA));
    expectRefused(assessPassword('AdaLovelace', ADA));
    expectRefused(assessPassword('lovelace2024', ADA));
  });

  it('uses the context words only for that user', () => {
    const fullName = 'Quentin Zyxwvander';
    const password = 'zyxwvanderquentin';
    expectAccepted(assessPassword(password));
    expectRefused(assessPassword(password, [fullName, 'q@example.com']));
  });

  it('accepts a passphrase and a random 16-character string', () => {
    expectAccepted(assessPassword('correct horse battery staple'));
    expectAccepted(assessPassword(randomPassword(16, ASCII, 7), ADA));
  });

  it.each([64, 128])('accepts a %i-character password of mixed Unicode', (length) => {
    const password = randomPassword(length, MIXED_UNICODE, length);
    expect(Array.from(password)).toHaveLength(length);
    const verdict = assessPassword(password, ADA);
    expectAccepted(verdict);
    expect(verdict.score).toBe(4);
  });

  it('evaluates only the first 100 characters: a weak tail does not make a long password weak', () => {
    const strongHead = randomPassword(100, ASCII, 3);
    expect(assessPassword(`${strongHead}password`)).toEqual(assessPassword(strongHead));
    const weakHead = 'a'.repeat(100);
    expect(assessPassword(`${weakHead}${randomPassword(28, ASCII, 5)}`)).toEqual(assessPassword(weakHead));
  });

  it('labels every score, tips a fair password and says nothing of a strong one', () => {
    expect(assessPassword('correct horse battery staple')).toEqual({ acceptable: true, score: 4, label: 'Strong', message: '' });
    const fair = ['tigerlily8', 'sunsetgrove', 'bluecanoe7'].map((password) => assessPassword(password)).find((v) => v.score === 2);
    expect(fair).toEqual({ acceptable: true, score: 2, label: 'Fair', message: expect.stringMatching(/\w.*\.$/) });
  });

  it('answers the same verdict for the same input every time (no state kept between calls)', () => {
    const first = assessPassword('lovelace2024', ADA);
    assessPassword('something else entirely', ['Other Person']);
    expect(assessPassword('lovelace2024', ADA)).toEqual(first);
    expect(assessPassword('lovelace2024').score).toBeGreaterThanOrEqual(first.score);
  });
});
