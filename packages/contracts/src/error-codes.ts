// No zod here: the browser bundles import these codes, and must not pull the schema library in with them.
/** Stable machine-readable error codes; the message is for people, the code for programs. */
export const ErrorCode = {
  validation: 'VALIDATION_FAILED',
  malformedJson: 'BODY.MALFORMED_JSON',
  bodyTooLarge: 'BODY.TOO_LARGE',
  unsupportedMediaType: 'BODY.UNSUPPORTED_MEDIA_TYPE',
  /** A request body sent without a Content-Length (chunked): the gateway takes only framed bodies. */
  lengthRequired: 'BODY.LENGTH_REQUIRED',
  unauthenticated: 'AUTH.UNAUTHENTICATED',
  invalidCredentials: 'AUTH.INVALID_CREDENTIALS',
  badSignature: 'AUTH.BAD_INTERNAL_SIGNATURE',
  xsrf: 'AUTH.XSRF_TOKEN_INVALID',
  /** A write from another site (Sec-Fetch-Site: cross-site, or an Origin that is not the app's). */
  crossSite: 'AUTH.CROSS_SITE_REQUEST',
  /** The current password given to change the password or delete the account is wrong (403, not 401: the session is fine). */
  wrongPassword: 'AUTH.WRONG_PASSWORD',
  emailTaken: 'USER.EMAIL_TAKEN',
  /**
   * 409: the password changed between the moment this change or reset read it and its write (another
   * change or a reset won, docs/PRODUCT.md §10.10); nothing was written.
   */
  passwordChangedConcurrently: 'USER.PASSWORD_CHANGED_CONCURRENTLY',
  /** 400: a password reset link that is unknown, already used or expired (docs/PRODUCT.md §10.10). */
  resetLinkInvalid: 'USER.RESET_LINK_INVALID',
  todoNotFound: 'TODO.NOT_FOUND',
  /** 404: a list id that is not one of the person's lists (unknown, deleted, or another person's: which is not said; PRODUCT §10.19). */
  listNotFound: 'LIST.NOT_FOUND',
  /** 409: the person already has a list of that name, case aside (PRODUCT §10.19); nothing was written. */
  listNameTaken: 'LIST.NAME_TAKEN',
  /** 409: the person has LIMITS.lists lists already (PRODUCT §10.19); nothing was written. */
  listsFull: 'LIST.LIMIT_REACHED',
  /** 409: the person has LIMITS.savedFilters saved filters already (PRODUCT §10.20); nothing was written. */
  savedFiltersFull: 'SAVED_FILTER.LIMIT_REACHED',
  /** 404: a saved filter id that is not one of the person's (unknown, deleted or another person's alike; PRODUCT §10.20). */
  savedFilterNotFound: 'SAVED_FILTER.NOT_FOUND',
  /** 404: a calendar feed address that is unknown or was turned off or replaced; which one is not said (docs/PRODUCT.md §10.18). */
  calendarFeedNotFound: 'CALENDAR.FEED_NOT_FOUND',
  /** Undo came after the server's restore window closed, or the task was never deleted (docs/PRODUCT.md §10.11.4). */
  todoNotRestorable: 'TODO.NOT_RESTORABLE',
  /**
   * 422: an `Idempotency-Key` this user already sent with another request (another call, task or body) within
   * 24 h (docs/PRODUCT.md §7); nothing was written.
   */
  idempotencyKeyReused: 'TODO.IDEMPOTENCY_KEY_REUSED',
  /**
   * 424 (a sync command, docs/PRODUCT.md §10.4): the command names a temporary id whose add was never applied
   * (refused, or not sent); nothing was written.
   */
  dependencyFailed: 'TODO.DEPENDENCY_FAILED',
  /** Too many open live streams for this session (429) or this gateway process (503). */
  tooManyStreams: 'EVENTS.TOO_MANY_STREAMS',
  /** A request head over the gateway's size or count limit (431). */
  headersTooLarge: 'REQUEST.HEADERS_TOO_LARGE',
  /** A request that did not arrive in time (408: its head or body came too slowly). */
  requestTimeout: 'REQUEST.TIMEOUT',
  /** A request the HTTP parser could not read (400). */
  malformedRequest: 'REQUEST.MALFORMED',
  routeNotFound: 'ROUTE.NOT_FOUND',
  methodNotAllowed: 'ROUTE.METHOD_NOT_ALLOWED',
  rateLimited: 'RATE_LIMITED',
  upstreamUnavailable: 'UPSTREAM.UNAVAILABLE',
  upstreamTimeout: 'UPSTREAM.TIMEOUT',
  badGateway: 'UPSTREAM.BAD_GATEWAY',
  unavailable: 'SERVICE.UNAVAILABLE',
  /**
   * 503: the storage refused the write (disk or quota full, read-only, a failed write): nothing was saved.
   * Reads still work; try the change again later (docs/OPERATIONS.md "Full disk").
   */
  storageNotWritable: 'STORAGE.NOT_WRITABLE',
  internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
