// A tool result as the Tools view shows it: text content as text, anything
// else (images, audio, resources, structured content) as pretty JSON with
// long strings (base64 data) shortened. Pure.

/** One block of a result; `extra` marks protocol metadata shown folded away. */
export type ResultPart =
  { kind: 'text'; text: string } | { kind: 'json'; label: string; json: string; extra?: boolean };

/** What the view draws for a finished call. */
export interface DescribedResult {
  isError: boolean;
  parts: ResultPart[];
}

const LONG = 2000;

/** JSON with strings past `LONG` characters cut (with their full length named). */
export function prettyJson(value: unknown): string {
  try {
    return (
      JSON.stringify(
        value,
        (_k, v: unknown) =>
          typeof v === 'string' && v.length > LONG ? `${v.slice(0, LONG)}… (${v.length} characters)` : v,
        2,
      ) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Splits an MCP CallToolResult into parts; anything not shaped like one is shown whole as JSON. */
export function describeResult(result: unknown): DescribedResult {
  if (!isObject(result) || !Array.isArray(result.content))
    return { isError: false, parts: [{ kind: 'json', label: 'result', json: prettyJson(result) }] };
  const parts: ResultPart[] = [];
  for (const item of result.content) {
    if (isObject(item) && item.type === 'text' && typeof item.text === 'string')
      parts.push({ kind: 'text', text: item.text });
    else
      parts.push({
        kind: 'json',
        label: isObject(item) && typeof item.type === 'string' ? item.type : 'content',
        json: prettyJson(item),
      });
  }
  if (result.structuredContent !== undefined)
    parts.push({ kind: 'json', label: 'structuredContent', json: prettyJson(result.structuredContent) });
  const rest = Object.fromEntries(
    Object.entries(result).filter(([k]) => !['content', 'structuredContent', 'isError'].includes(k)),
  );
  if (Object.keys(rest).length > 0)
    parts.push({ kind: 'json', label: Object.keys(rest).join(', '), json: prettyJson(rest), extra: true });
  return { isError: result.isError === true, parts };
}
