// A mistake in what the user asked for (a flag, a path, a name): said in one line with what to do next,
// exit code 2, never a stack trace. Thrown from every layer, so it lives below them all.
export class UsageError extends Error {}
