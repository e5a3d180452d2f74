/** Turns passwords into self-describing stored strings and checks a password against one. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored string that cannot be read; never throws for either. */
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * True when `stored` was not made the way {@link hash} makes one today (another scheme or another cost):
   * once the password is proven right, hash it again and store the new string.
   */
  needsRehash(stored: string): boolean;
}

/**
 * The form of a password that is hashed. NFKC (NIST SP 800-63B §5.1.1.2): the same password typed on
 * another keyboard or OS must match.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}
