import { randomBytes } from 'node:crypto';
import { ErrorCode, ObjectIdString, type LoginRequest, type PublicUser, type SignupRequest } from '@tm/contracts';
import { ConflictError, UnauthorizedError } from '@tm/service-kit/errors';
import type { PasswordHasher } from './password.hasher.js';
import { DuplicateEmailError, type UsersRepository } from './users.repository.js';

export interface UsersServiceDeps {
  repository: UsersRepository;
  hasher: PasswordHasher;
}

/** Account use cases: signup, credential check, profile. Knows neither HTTP nor the store behind it. */
export class UsersService {
  private readonly repository: UsersRepository;
  private readonly hasher: PasswordHasher;
  /**
   * Checked against when the email is unknown, so that path does the same scrypt work as a wrong password
   * and response time does not tell which emails have accounts. Made once, at start-up.
   */
  private readonly dummyHash: Promise<string>;

  constructor({ repository, hasher }: UsersServiceDeps) {
    this.repository = repository;
    this.hasher = hasher;
    this.dummyHash = hasher.hash(randomBytes(16).toString('base64'));
    // Awaited on first use; this only keeps an early failure from being reported as unhandled.
    this.dummyHash.catch(() => undefined);
  }

  /** Creates an account; 409 when the email is taken, including by a signup racing this one. */
  async signup({ fullName, email, password }: SignupRequest): Promise<PublicUser> {
    // Cheap early answer for the common case; the store's unique constraint is what actually decides.
    if (await this.repository.findByEmail(email)) throw emailTaken();
    const passwordHash = await this.hasher.hash(password);
    try {
      return await this.repository.create({ fullName, email, passwordHash });
    } catch (error) {
      if (error instanceof DuplicateEmailError) throw emailTaken();
      throw error;
    }
  }

  /** The user these credentials belong to; one and the same 401 for an unknown email and a wrong password. */
  async login({ email, password }: LoginRequest): Promise<PublicUser> {
    const record = await this.repository.findByEmail(email);
    const stored = record?.passwordHash ?? (await this.dummyHash);
    const matches = await this.hasher.verify(password, stored);
    if (!record || !matches) throw new UnauthorizedError('Invalid email or password', ErrorCode.invalidCredentials);
    const { passwordHash: _hash, ...user } = record;
    return user;
  }

  /** The signed-in user; 401 when the vouched id is malformed or its account no longer exists. */
  async me(userId: string): Promise<PublicUser> {
    const id = ObjectIdString.safeParse(userId);
    const user = id.success ? await this.repository.findById(id.data) : null;
    if (!user) throw new UnauthorizedError('Not signed in', ErrorCode.unauthenticated);
    return user;
  }
}

function emailTaken(): ConflictError {
  return new ConflictError('An account with this email already exists', ErrorCode.emailTaken);
}
