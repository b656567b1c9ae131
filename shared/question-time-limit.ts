// The longest time limit a question may be given, defined once: the settings
// contract and the approval wire's per-question limit both read it.

/** A day: the longest a question may stay open before the host cancels it (0 = no limit, the default). */
export const MAX_QUESTION_TIME_LIMIT_MINUTES = 1440;
