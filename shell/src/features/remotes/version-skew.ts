/**
 * A remote that needs another major of a shared singleton than the one the page already runs (React, the
 * router, React Query, the toaster) fails to load instead of running against the wrong copy: the shared
 * modules are `singleton` + `strictVersion` with a same-major `requiredVersion`
 * (packages/build-config/shared-deps.mjs), and the federation runtime then throws
 * "Version 19.3.1 from shell of shared singleton module react does not satisfy the requirement of
 * mfe_tasks which needs ^20.0.0". This reads that message back into its parts, for the log.
 */
export interface VersionSkew {
  /** The remote that asked for the shared module. */
  remote: string;
  /** The shared package: `react`, `react-router-dom`. */
  shared: string;
  /** The range the remote was built with (`^20.0.0`). */
  required: string;
  /** The version the page provides (`19.3.1`) and who provided it (`shell`). */
  provided: string;
  providedBy: string;
}

const SKEW = /Version (\S+) from (\S+) of shared singleton module (\S+) does not satisfy the requirement of (\S+) which needs ([^\s)]+)/;

function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    if (current instanceof Error) {
      messages.push(current.message);
      current = current.cause;
    } else {
      if (typeof current === 'string') messages.push(current);
      break;
    }
  }
  return messages;
}

/** The version mismatch an error reports, if it is one (its message or a cause's). */
export function versionSkewOf(error: unknown): VersionSkew | undefined {
  for (const message of messagesOf(error)) {
    const match = SKEW.exec(message);
    if (match) {
      const [, provided = '', providedBy = '', shared = '', remote = '', required = ''] = match;
      return { remote, shared, required, provided, providedBy };
    }
  }
  return undefined;
}

/** The log line: which remote, which shared package, what it needs and what the page has. */
export function describeVersionSkew(skew: VersionSkew): string {
  return `Remote ${skew.remote} was built for ${skew.shared} ${skew.required}, but this page runs ${skew.shared} ${skew.provided} (from ${skew.providedBy}): it is not loaded. Rebuild ${skew.remote} against the shell's major version of ${skew.shared}.`;
}

/** The log line for an error that is a version mismatch, else undefined. */
export function versionSkewMessage(error: unknown): string | undefined {
  const skew = versionSkewOf(error);
  return skew ? describeVersionSkew(skew) : undefined;
}
