import { z } from 'zod';

type RawIssue = z.core.$ZodRawIssue;

/**
 * Per-parse zod error map that words zod's *generic* issues for a person, naming the field ("Title must be
 * text", "Password is required"), since the message of a {@link ValidationError} carries no field prefix.
 * zod consults it only when the schema gave no message of its own, so our schemas' messages ("Enter a task
 * before adding it.", "Enter a valid email address"…) still come through verbatim.
 */
export const plainIssueMessage: z.core.$ZodErrorMap = (issue) => {
  const path = issue.path ?? [];
  const label = fieldLabel(path);
  const subject = label ?? 'The request body';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined && label !== null) return `${label} is required`;
      if (label === null && issue.expected === 'object') return 'The request body must be a JSON object';
      return `${subject} must be ${typeName(issue.expected)}`;
    case 'unrecognized_keys': {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `${subject} has ${issue.keys.length === 1 ? 'an unknown field' : 'unknown fields'}: ${keys}`;
    }
    case 'invalid_union':
      return `${subject} is not valid`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${subject} must be ${literal(issue.values[0])}`
        : `${subject} must be one of ${issue.values.map(literal).join(', ')}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(subject, issue) ?? withLabel(label, issue);
    case 'invalid_format':
      return `${subject} is not ${FORMAT_NAMES[issue.format] ?? 'in the expected format'}`;
    default:
      return withLabel(label, issue);
  }
};

/** "fullName" → "Full name"; the nearest named field of the path, or null at the root. */
function fieldLabel(path: readonly PropertyKey[]): string | null {
  const name = [...path].reverse().find((part): part is string => typeof part === 'string');
  if (name === undefined || name.length === 0) return null;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.length === 0 ? null : words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
  date: 'a date',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `of type ${expected}`;
}

const FORMAT_NAMES: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid URL',
  uuid: 'a valid UUID',
  datetime: 'a valid date and time',
  date: 'a valid date',
  time: 'a valid time',
};

function literal(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

const SIZE_UNITS: Record<string, [one: string, many: string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
};
const NUMBER_ORIGINS = new Set(['number', 'int', 'bigint']);

/** "Full name must have at most 100 characters", "Count must be at least 1"; null for dates, files… */
function sizeMessage(subject: string, issue: Extract<RawIssue, { code: 'too_small' | 'too_big' }>): string | null {
  const small = issue.code === 'too_small';
  const bound = String(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const units = SIZE_UNITS[issue.origin];
  const unit = units === undefined ? undefined : units[bound === '1' ? 0 : 1];
  const inclusive = issue.inclusive !== false;
  if (unit !== undefined) {
    if (issue.exact === true) return `${subject} must have exactly ${bound} ${unit}`;
    const relation = inclusive ? (small ? 'at least' : 'at most') : small ? 'more than' : 'fewer than';
    return `${subject} must have ${relation} ${bound} ${unit}`;
  }
  if (NUMBER_ORIGINS.has(issue.origin)) {
    if (issue.exact === true) return `${subject} must be ${bound}`;
    const relation = inclusive ? (small ? 'at least' : 'at most') : small ? 'greater than' : 'less than';
    return `${subject} must be ${relation} ${bound}`;
  }
  return null;
}

/** zod's own wording, prefixed with the field it is about (it would be unclear alone). */
function withLabel(label: string | null, issue: RawIssue): string {
  const generic = messageOf(z.config().localeError?.(issue)) ?? 'Invalid input';
  return label === null ? generic : `${label}: ${generic}`;
}

function messageOf(result: ReturnType<z.core.$ZodErrorMap>): string | undefined {
  if (result === undefined || result === null) return undefined;
  return typeof result === 'string' ? result : result.message;
}
