// Tests log nothing unless asked (LOG_LEVEL=debug pnpm test).
process.env.LOG_LEVEL ??= 'silent';
