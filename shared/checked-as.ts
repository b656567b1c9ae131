// The one named way to hand a value to an API typed narrower than what
// TypeScript can prove, where a RUNTIME check already established its shape
// (a zod or JSON Schema parse, the host contract's validators, the MCP SDK's
// own result schemas). ESLint bans `as never` and `as unknown as` in
// production code (eslint.config.mjs); call sites say which check holds.

/** `value`, already checked at runtime (the call site names the check), typed as `T`. */
export function checkedAs<T>(value: unknown): T {
  return value as T;
}
