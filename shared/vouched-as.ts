// The one named way to hand a value to an API typed narrower than what
// TypeScript can prove. No check runs here: the call site vouches for the
// type, and says why (a runtime check it already made, such as a zod or JSON
// Schema parse, the host contract's validators or the MCP SDK's own result
// schemas; or the way the code itself built the value). ESLint bans `as never`
// and `as unknown as` in production code (eslint.config.mjs).

/** `value` typed as `T`, on the call site's word (it names the check or the construction that holds). */
export function vouchedAs<T>(value: unknown): T {
  return value as T;
}
