// No zod here: the browser bundles read these, and must not pull the schema library in with them.

/**
 * The app's pages of a forgotten password (docs/PRODUCT.md §2, §10.10): mfe-auth declares them as routes of
 * the catalog, and the gateway builds the link of a reset mail to the second (`?token=…`).
 */
export const FORGOT_PASSWORD_PAGE = '/forgot-password';
export const RESET_PASSWORD_PAGE = '/reset-password';
