/**
 * A mistake the user can fix (bad flag, invalid scenario, missing file). The CLI prints its
 * message without a stack trace and exits with code 2; anything else is a bug (exit 1).
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
