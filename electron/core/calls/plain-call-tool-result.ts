// A hand check for the commonest tools/call result: text parts only. The
// SDK's CallToolResult schema (zod) ran once per pass-through call, about 4 %
// of the gateway's work (docs/gateway-profile.md, round 3). This check
// accepts only a strict subset of what that schema accepts, and returns
// exactly what zod would return for it: a fresh object with the schema's
// keys in the schema's order (`_meta`, `content`, `structuredContent`,
// `isError`), then `resultType`; fresh text parts with `type` and `text`
// only; a shallow copy of `_meta` (zod copies a loose object, not what it
// holds). Anything else, however ordinary, returns undefined and goes to
// zod; plain-call-tool-result.test.ts compares both on many shapes.
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/client';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  // What JSON.parse makes; anything else (a null prototype, a class instance) goes to zod.
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** A text part `{ type: 'text', text }` and nothing else, copied as zod copies it; undefined otherwise. */
function textPart(part: unknown): { type: 'text'; text: string } | undefined {
  if (!isPlainObject(part)) return undefined;
  const keys = Object.keys(part);
  if (keys.length !== 2 || !((keys[0] === 'type' && keys[1] === 'text') || (keys[0] === 'text' && keys[1] === 'type')))
    return undefined;
  if (part.type !== 'text' || typeof part.text !== 'string') return undefined;
  return { type: 'text', text: part.text };
}

/** A server info of exactly `{ name, version }` strings, copied as zod copies it; undefined otherwise. */
function serverInfo(info: unknown): { name: string; version: string } | undefined {
  if (!isPlainObject(info)) return undefined;
  const keys = Object.keys(info);
  if (keys.length !== 2 || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined;
  if (!((keys[0] === 'name' && keys[1] === 'version') || (keys[0] === 'version' && keys[1] === 'name')))
    return undefined;
  return { name: info.name, version: info.version };
}

/**
 * What the CallToolResult schema would return for `value`, when `value` is
 * a result of text parts (with optional `isError`, `structuredContent`,
 * `_meta` and `resultType: "complete"`); undefined for every other value,
 * which the caller must then check with the schema itself.
 */
export function plainCallToolResult(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined;
  let meta: Record<string, unknown> | undefined;
  let hasMeta = false;
  let content: unknown[] | undefined;
  let hasStructured = false;
  let hasIsError = false;
  let hasResultType = false;
  // Own enumerable string keys only (JSON.parse makes nothing else; `__proto__` is refused below).
  for (const key of Object.keys(value)) {
    const v = value[key];
    switch (key) {
      case '_meta': {
        if (!isPlainObject(v)) return undefined;
        // zod's order: the schema's one key first, then the others as they came. That key is the server
        // info (the SDK's servers put it on every result); zod checks it as an Implementation, so only
        // `{ name, version }` strings are taken here and anything else goes to zod.
        const copy: Record<string, unknown> = {};
        if (SERVER_INFO_META_KEY in v) {
          const info = serverInfo(v[SERVER_INFO_META_KEY]);
          if (!info) return undefined;
          copy[SERVER_INFO_META_KEY] = info;
        }
        for (const k of Object.keys(v)) {
          if (k === SERVER_INFO_META_KEY) continue;
          if (k === '__proto__') return undefined;
          copy[k] = v[k];
        }
        meta = copy;
        hasMeta = true;
        break;
      }
      case 'content': {
        if (!Array.isArray(v)) return undefined;
        const parts: unknown[] = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const part = textPart(v[i]);
          if (!part) return undefined;
          parts[i] = part;
        }
        content = parts;
        break;
      }
      case 'structuredContent':
        hasStructured = true;
        break;
      case 'isError':
        if (typeof v !== 'boolean') return undefined;
        hasIsError = true;
        break;
      case 'resultType':
        if (v !== 'complete') return undefined;
        hasResultType = true;
        break;
      default:
        return undefined;
    }
  }
  // Absent content is zod's default ([]): left to zod, as is any other shape.
  if (!content) return undefined;
  const out: Record<string, unknown> = {};
  if (hasMeta) out._meta = meta;
  out.content = content;
  if (hasStructured) out.structuredContent = value.structuredContent;
  if (hasIsError) out.isError = value.isError;
  if (hasResultType) out.resultType = 'complete';
  return out;
}
