/** The text as Prettier formats it for `file` (the project's .prettierrc applies). */
export function formatMarkdown(file: string, text: string): Promise<string>;
