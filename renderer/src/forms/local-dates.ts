// Dates typed the way the app's language writes them. A native date input
// follows the browser's locale, not the page's language: a German app in an
// English browser showed mm/dd/yyyy. For German the form therefore takes text
// in TT.MM.JJJJ (and TT.MM.JJJJ HH:MM) and hands the schema what it wants:
// YYYY-MM-DD, or RFC 3339 in UTC with Z. English keeps the native pickers.
// Pure.
import type { Language } from '../i18n/translate';

/** True when `language` types dates as text rather than through the browser's picker. */
export function typesDates(language: Language): boolean {
  return language === 'de';
}

const two = (n: number) => String(n).padStart(2, '0');

/** A real calendar day (no 31.02.). */
function validDay(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** YYYY-MM-DD as TT.MM.JJJJ; anything else is returned as it is (the field shows what it holds). */
export function showDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : value;
}

/** TT.MM.JJJJ (one-digit day and month too) as YYYY-MM-DD, or null when it is no such date. */
export function parseDate(text: string): string | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDay(year, month, day) ? `${m[3]}-${two(month)}-${two(day)}` : null;
}

/** An RFC 3339 instant as TT.MM.JJJJ HH:MM in local time; anything else is returned as it is. */
export function showDateTime(value: string): string {
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) return value;
  const d = new Date(at);
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** TT.MM.JJJJ HH:MM in local time as RFC 3339 UTC (with Z), or null when it is no such moment. */
export function parseDateTime(text: string): string | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s+(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const [day, month, year, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (!validDay(year, month, day) || hour > 23 || minute > 59) return null;
  const local = new Date(2000, 0, 1, hour, minute);
  local.setFullYear(year, month - 1, day); // not new Date(year, …): it reads years below 100 as 19xx
  // A time the clock skips (the spring change) does not exist locally: refused rather than moved.
  if (local.getHours() !== hour || local.getMinutes() !== minute) return null;
  return local.toJSON(); // as the native picker's answer: UTC, with Z
}
