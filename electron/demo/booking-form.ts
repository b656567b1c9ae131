// The demo's booking form (Kimai-style time sheet entry): one flat
// elicitation schema that uses every field kind MCP allows, each with a
// default, plus the server-side check and summary of an accepted booking.
// The server re-checks everything: what comes back from a client is input.
import * as z from 'zod';

/** What the caller may pre-fill through the tool arguments. */
export interface BookingPrefill {
  description?: string;
  hours?: number;
  day?: string;
}

const PROJECTS = [
  { const: 'countersign', title: 'Countersign' },
  { const: 'kimai-migration', title: 'Kimai migration' },
  { const: 'internal', title: 'Internal' },
];
const RATES = ['standard', 'reduced', 'overtime'];
const RATE_NAMES = ['Standard rate', 'Reduced rate', 'Overtime'];
const REVIEWERS = [
  { const: 'ana', title: 'Ana Lima' },
  { const: 'ben', title: 'Ben Okafor' },
  { const: 'chen', title: 'Chen Wei' },
];
const ACTIVITIES = ['development', 'meeting', 'support', 'documentation'] as const;
const TAGS = ['frontend', 'backend', 'docs', 'tests', 'review'] as const;

/** Today as YYYY-MM-DD in UTC (the demo has no user time zone). */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The booking form, with defaults from the prefill. */
export function bookingSchema(prefill: BookingPrefill = {}, now = new Date()) {
  const day = prefill.day ?? today(now);
  return {
    type: 'object' as const,
    properties: {
      description: {
        type: 'string',
        title: 'Description',
        description: 'What did you work on?',
        minLength: 3,
        maxLength: 200,
        default: prefill.description ?? 'Code review for the booking API',
      },
      notifyEmail: { type: 'string', title: 'Send a copy to', format: 'email', default: 'me@example.com' },
      ticketUrl: { type: 'string', title: 'Ticket', format: 'uri', default: 'https://tickets.example.com/KIM-42' },
      day: { type: 'string', title: 'Day', format: 'date', default: day },
      startedAt: { type: 'string', title: 'Started at', format: 'date-time', default: `${day}T09:00:00Z` },
      hours: { type: 'number', title: 'Hours', minimum: 0.25, maximum: 24, default: prefill.hours ?? 1.5 },
      breakMinutes: { type: 'integer', title: 'Break (minutes)', minimum: 0, maximum: 240, default: 0 },
      billable: { type: 'boolean', title: 'Billable', default: true },
      activity: { type: 'string', title: 'Activity', enum: [...ACTIVITIES], default: 'development' },
      project: { type: 'string', title: 'Project', oneOf: PROJECTS, default: 'countersign' },
      // enumNames is deprecated but still sent by older servers; the demo keeps one such field on purpose.
      rate: { type: 'string', title: 'Rate', enum: RATES, enumNames: RATE_NAMES, default: 'standard' },
      tags: {
        type: 'array',
        title: 'Tags',
        items: { type: 'string', enum: [...TAGS] },
        minItems: 1,
        maxItems: 3,
        default: ['backend'],
      },
      reviewers: {
        type: 'array',
        title: 'Reviewers',
        items: { anyOf: REVIEWERS },
        minItems: 0,
        maxItems: 2,
        default: ['ana'],
      },
    },
    required: ['description', 'day', 'hours', 'activity', 'project'],
  };
}

/** The accepted content, checked again on the server. */
export const bookingContent = z
  .object({
    description: z.string().min(3).max(200),
    notifyEmail: z.email().optional(),
    ticketUrl: z.url().optional(),
    day: z.iso.date(),
    startedAt: z.iso.datetime({ offset: true }).optional(),
    hours: z.number().min(0.25).max(24),
    breakMinutes: z.int().min(0).max(240).optional(),
    billable: z.boolean().optional(),
    activity: z.enum(ACTIVITIES),
    project: z.enum(PROJECTS.map((p) => p.const) as [string, ...string[]]),
    rate: z.enum(RATES as [string, ...string[]]).optional(),
    tags: z.array(z.enum(TAGS)).min(1).max(3).optional(),
    reviewers: z
      .array(z.enum(REVIEWERS.map((r) => r.const) as [string, ...string[]]))
      .max(2)
      .optional(),
  })
  .strict();

export type Booking = z.infer<typeof bookingContent>;

/** Checks accepted content: the booking, or a sentence naming what is wrong. */
export function parseBooking(content: unknown): { ok: true; booking: Booking } | { ok: false; problem: string } {
  const parsed = bookingContent.safeParse(content ?? {});
  if (parsed.success) return { ok: true, booking: parsed.data };
  return {
    ok: false,
    problem: parsed.error.issues.map((i) => `${i.path.join('.') || '(form)'}: ${i.message}`).join('; '),
  };
}

const titleOf = (list: Array<{ const: string; title: string }>, value: string) =>
  list.find((x) => x.const === value)?.title ?? value;

/** One paragraph describing a saved booking (what the agent gets back). */
export function summariseBooking(b: Booking): string {
  const rate = b.rate ? RATE_NAMES[RATES.indexOf(b.rate)] : undefined;
  const parts = [
    `Booked ${b.hours} h on ${b.day} for ${titleOf(PROJECTS, b.project)} ` +
      `(${b.activity}${b.billable === false ? ', not billable' : ', billable'}` +
      `${rate ? `, ${rate.toLowerCase()}` : ''}): "${b.description}".`,
  ];
  if (b.startedAt) parts.push(`Started ${b.startedAt}${b.breakMinutes ? ` with a ${b.breakMinutes} min break` : ''}.`);
  if (b.tags?.length) parts.push(`Tags: ${b.tags.join(', ')}.`);
  if (b.reviewers?.length) parts.push(`Reviewers: ${b.reviewers.map((r) => titleOf(REVIEWERS, r)).join(', ')}.`);
  if (b.ticketUrl) parts.push(`Ticket: ${b.ticketUrl}.`);
  if (b.notifyEmail) parts.push(`A copy goes to ${b.notifyEmail}.`);
  return parts.join(' ');
}
