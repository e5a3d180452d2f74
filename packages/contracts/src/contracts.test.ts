import { AddTodoRequest, LIMITS, LoginRequest, ObjectIdString, SignupRequest, UpdateTodoRequest, apiPath, API } from './index.js';

describe('contracts', () => {
  it('normalises email: trimmed and lower-cased before it is checked', () => {
    const parsed = SignupRequest.parse({ fullName: '  Ada  ', email: '  Ada@Example.COM ', password: '12345678' });
    expect(parsed).toEqual({ fullName: 'Ada', email: 'ada@example.com', password: '12345678' });
    expect(LoginRequest.parse({ email: 'A@B.CO', password: 'x' }).email).toBe('a@b.co');
  });

  it('enforces our length rules at their exact bounds', () => {
    const base = { fullName: 'A', email: 'a@example.com', password: 'p'.repeat(LIMITS.password.min) };
    expect(SignupRequest.safeParse(base).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, password: 'p'.repeat(LIMITS.password.min - 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, password: 'p'.repeat(LIMITS.password.max + 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, fullName: 'n'.repeat(LIMITS.fullName.max) }).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, fullName: 'n'.repeat(LIMITS.fullName.max + 1) }).success).toBe(false);
    expect(SignupRequest.safeParse({ ...base, fullName: '   ' }).success).toBe(false);
    const longEmail = `${'e'.repeat(LIMITS.email.max - 12)}@example.com`;
    expect(longEmail).toHaveLength(LIMITS.email.max);
    expect(SignupRequest.safeParse({ ...base, email: longEmail }).success).toBe(true);
    expect(SignupRequest.safeParse({ ...base, email: `e${longEmail}` }).success).toBe(false);
  });

  it('trims titles and bounds them to 1–500 characters', () => {
    expect(AddTodoRequest.parse({ title: '  buy milk ' }).title).toBe('buy milk');
    expect(AddTodoRequest.safeParse({ title: ' \t ' }).success).toBe(false);
    expect(AddTodoRequest.safeParse({ title: 't'.repeat(500) }).success).toBe(true);
    expect(AddTodoRequest.safeParse({ title: 't'.repeat(501) }).success).toBe(false);
  });

  it('accepts updateData with completed and/or isPinned only', () => {
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: true } }).success).toBe(true);
    expect(UpdateTodoRequest.safeParse({ updateData: { isPinned: false, completed: true } }).success).toBe(true);
    expect(UpdateTodoRequest.safeParse({ updateData: {} }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: 'true' } }).success).toBe(false);
    expect(UpdateTodoRequest.safeParse({ updateData: { completed: true, title: 'x' } }).success).toBe(false);
  });

  it('accepts only 24-hex ids, lower-cased', () => {
    expect(ObjectIdString.parse('0123456789ABCDEF01234567')).toBe('0123456789abcdef01234567');
    expect(ObjectIdString.safeParse('0123456789abcdef0123456').success).toBe(false);
    expect(ObjectIdString.safeParse('g123456789abcdef01234567').success).toBe(false);
  });

  it('fills path parameters of the API table', () => {
    expect(apiPath(API.updateTodo.path, { todoId: 'abc' })).toBe('/todo/update-todo/abc');
    expect(API.signup.status).toBe(201);
  });
});
