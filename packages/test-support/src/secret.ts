/** The internal secret every test stack signs identities with (its own module: stack.ts and index.ts both need it). */
export const TEST_SECRET = 'test-internal-secret-0123456789abcdef0123456789';
