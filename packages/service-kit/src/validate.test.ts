import { AddTodoRequest, ErrorCode, LoginRequest, SignupRequest, TodoIdParams, UpdateTodoRequest } from '@tm/contracts';
import { z } from 'zod';
import { ValidationError } from './errors.js';
import { parseOr400 } from './validate.js';

/** The ValidationError parseOr400 throws for `data`. */
function refusal(schema: z.ZodType, data: unknown): ValidationError {
  try {
    parseOr400(schema, data);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a validation error');
}

describe('ValidationError', () => {
  it("is a 400 whose message is the first issue's message alone; the issues keep their paths", () => {
    const error = new ValidationError([
      { path: ['title'], message: 'Enter a task before adding it.' },
      { path: ['other'], message: 'Something else' },
    ]);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 400,
      code: ErrorCode.validation,
      message: 'Enter a task before adding it.',
    });
    expect(error.issues?.map((issue) => issue.path)).toEqual([['title'], ['other']]);
  });

  it('says "Invalid request" when there is no issue', () => {
    expect(new ValidationError([]).message).toBe('Invalid request');
  });
});

describe('parseOr400', () => {
  it('returns the parsed data', () => {
    expect(parseOr400(AddTodoRequest, { title: '  milk ' })).toEqual({ title: 'milk' });
  });

  it.each<[string, z.ZodType, unknown, string]>([
    ['an invisible title', AddTodoRequest, { title: '\u200B' }, 'Enter a task before adding it.'],
    ['a title over the limit', AddTodoRequest, { title: 'x'.repeat(501) }, 'A task can be at most 500 characters long.'],
    ['a blank full name', SignupRequest, { fullName: ' ', email: 'a@example.com', password: 'long enough' }, 'Full name is required'],
    ['an invalid email', SignupRequest, { fullName: 'Ada', email: 'ada', password: 'long enough' }, 'Enter a valid email address'],
    ['a short password', SignupRequest, { fullName: 'Ada', email: 'a@example.com', password: 'short' }, 'Password must be at least 8 characters'],
    ['an empty login password', LoginRequest, { email: 'a@example.com', password: '' }, 'Password is required'],
    ['an empty update', UpdateTodoRequest, { updateData: {} }, 'updateData must set title, completed, isPinned, due, repeat, repeatFrom, reminders, listId, priority, labels, note, subtasks and/or order'],
    ['a malformed id', TodoIdParams, { todoId: 'abc' }, 'The id must be 24 hexadecimal characters (0-9, a-f)'],
  ])('keeps our schemas\' own message verbatim, without a field prefix: %s', (_name, schema, data, message) => {
    const error = refusal(schema, data);
    expect(error.message).toBe(message);
    expect(error.issues?.[0]?.message).toBe(message);
  });

  it.each<[string, z.ZodType, unknown, string]>([
    ['a title of the wrong type', AddTodoRequest, { title: 42 }, 'Title must be text'],
    ['a missing title', AddTodoRequest, {}, 'Title is required'],
    ['a missing body', AddTodoRequest, undefined, 'The request body must be a JSON object'],
    ['an array body', AddTodoRequest, ['milk'], 'The request body must be a JSON object'],
    ['a full name of the wrong type', SignupRequest, { fullName: 1, email: 'a@example.com', password: 'long enough' }, 'Full name must be text'],
    ['a string flag', UpdateTodoRequest, { updateData: { completed: 'yes' } }, 'Completed must be true or false'],
    ['an unknown field', UpdateTodoRequest, { updateData: { completed: true, owner: 'x' } }, 'Update data has an unknown field: "owner"'],
    ['a missing object', UpdateTodoRequest, { completed: true }, 'Update data is required'],
  ])("words zod's generic issues for a person, naming the field: %s", (_name, schema, data, message) => {
    expect(refusal(schema, data).message).toBe(message);
  });

  it('words the other generic issues too', () => {
    const schema = z.object({
      count: z.number().min(3),
      tags: z.array(z.string()).max(1),
      colour: z.enum(['red', 'blue']),
      at: z.iso.datetime(),
      either: z.union([z.string(), z.number()]),
    });
    const error = refusal(schema, { count: 1, tags: ['a', 'b'], colour: 'green', at: 'soon', either: true });
    expect(error.issues).toEqual([
      { path: ['count'], message: 'Count must be at least 3' },
      { path: ['tags'], message: 'Tags must have at most 1 item' },
      { path: ['colour'], message: 'Colour must be one of "red", "blue"' },
      { path: ['at'], message: 'At is not a valid date and time' },
      { path: ['either'], message: 'Either is not valid' },
    ]);
  });

  it('keeps a message given in the schema over the generic wording', () => {
    const schema = z.object({ age: z.number('Age must be a number').min(18, 'You must be 18 or older') });
    expect(refusal(schema, { age: 'x' }).message).toBe('Age must be a number');
    expect(refusal(schema, { age: 3 }).message).toBe('You must be 18 or older');
  });
});
