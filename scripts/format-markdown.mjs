// @ts-check
// Generated Markdown (docs/benchmarks.md, docs/conformance.md) is written as
// Prettier formats it, so `prettier --check` in `npm test` holds for what the
// generators write as much as for what people write.
import { format, resolveConfig } from 'prettier';

/**
 * The text as Prettier formats it for `file` (the project's .prettierrc applies).
 * @param {string} file the path the text will be written to
 * @param {string} text Markdown
 * @returns {Promise<string>}
 */
export async function formatMarkdown(file, text) {
  const config = (await resolveConfig(file)) ?? {};
  return format(text, { ...config, filepath: file, parser: 'markdown' });
}
