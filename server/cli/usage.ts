/** A command line the user must correct: exit 2, the message, then the command's help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}

/** A failure to report as it is (an API error, a refusal): exit 1 with the message on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A command that ends with an exit code of its own meaning (3: `kanban pick` found nothing), the message on stderr. */
export class ExitWith extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
