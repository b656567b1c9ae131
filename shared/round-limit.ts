// The round limit: how many rounds of questions one call may take before the
// host stops it. Defined once here — the contract's bounds, the settings
// default, the CLI's --max-rounds default and the Settings panel's check.

/** Rounds a call may take unless the settings or --max-rounds say otherwise. */
export const DEFAULT_MAX_ROUNDS = 10;
/** The smallest round limit a setting may hold. */
export const MIN_MAX_ROUNDS = 1;
/** The largest round limit a setting may hold. */
export const MAX_MAX_ROUNDS = 100;
