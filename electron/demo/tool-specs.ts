// What both eras of the demo server share: tool names, descriptions,
// argument schemas, question texts and the sentences each outcome returns.
// Decline and cancel are reported differently on purpose: a decline is an
// explicit "no", a cancel means the dialog was dismissed.
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { parseBooking, summariseBooking, type BookingPrefill } from './booking-form';
import type { ConsentSite } from './consent-site';

/** The demo server's name and version (serverInfo). */
export const DEMO_INFO = { name: 'countersign-demo', version: '0.1.0' };

export const DEMO_INSTRUCTIONS =
  'A demo time tracker in the spirit of Kimai. Writing tools ask the human first ' +
  '(the agent never sees the question): ' +
  'delete_time_entry, book_time, deploy and connect_calendar. add_numbers and echo ask nothing.';

/** Tools a server of either era provides. */
export const TOOL_NAMES = [
  'delete_time_entry',
  'book_time',
  'deploy',
  'connect_calendar',
  'add_numbers',
  'echo',
] as const;

/** What the demo server needs at run time. */
export interface DemoDeps {
  consent: ConsentSite;
  /** Modern era: how long a retry after "accept" waits for the browser consent before asking again. */
  urlWaitMs: number;
  /** Legacy era: how long the tool waits for the browser consent after "accept". */
  legacyUrlWaitMs: number;
}

export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
export const toolError = (value: string): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  isError: true,
});

/** A confirm-only question: no fields, just accept / decline / cancel. */
export const confirmOnly = { type: 'object' as const, properties: {} };

export type Refusal = 'decline' | 'cancel';

/** The sentence for a refused question; `what` says what did not happen. */
export function refused(action: Refusal, what: string): string {
  return action === 'decline' ? `Declined by the user: ${what}.` : `Cancelled (dialog dismissed): ${what}.`;
}

/** A human's answer to one form question, as either era hands it to the tool. */
export interface FormAnswer {
  action: 'accept' | Refusal;
  content?: Record<string, unknown>;
}

export const deleteArgs = z.object({ entryId: z.number().int().min(1).describe('The time entry to delete') });
/** delete_time_entry as both eras register it. */
export const deleteTool = {
  title: 'Delete time entry',
  description: 'Deletes a time sheet entry after the human confirms.',
  inputSchema: deleteArgs,
  annotations: { destructiveHint: true },
};
export const deleteQuestion = (entryId: number) => `Delete time entry ${entryId}? This cannot be undone.`;
export function deleteOutcome(action: 'accept' | Refusal, entryId: number): string {
  return action === 'accept' ? `Deleted time entry ${entryId}.` : refused(action, 'nothing was deleted');
}

export const bookArgs = z.object({
  description: z.string().min(3).max(200).optional().describe('Pre-fills the description'),
  hours: z.number().min(0.25).max(24).optional().describe('Pre-fills the hours'),
  day: z.iso.date().optional().describe('Pre-fills the day (YYYY-MM-DD)'),
});
export const BOOK_QUESTION = 'Book this time? Review the entry and change anything before it is saved.';
/** book_time as both eras register it. */
export const bookTool = {
  title: 'Book time',
  description: 'Books a time sheet entry; the human reviews and edits the whole entry first.',
  inputSchema: bookArgs,
};
/** The form's defaults from the arguments the agent gave (an absent one keeps the form's own). */
export function bookingPrefill(args: z.infer<typeof bookArgs>): BookingPrefill {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
/** What book_time returns for the human's answer: the server checks the booking again before it is saved. */
export function bookingOutcome(answer: FormAnswer): CallToolResult {
  if (answer.action !== 'accept') return text(refused(answer.action, 'nothing was booked'));
  const checked = parseBooking(answer.content);
  if (!checked.ok) return toolError(`The booking was not saved: ${checked.problem}`);
  return text(summariseBooking(checked.booking));
}

export const ENVIRONMENTS = ['staging', 'production'] as const;
export const deployArgs = z.object({
  service: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" or "-"')
    .describe('The service to deploy'),
  environment: z
    .enum(ENVIRONMENTS)
    .default('production')
    .describe('Where to deploy (the form lets the human change it)'),
});
/** deploy as both eras register it. */
export const deployTool = {
  title: 'Deploy a service',
  description: 'Deploys a service. Asks for the plan, and for production a second, final confirmation.',
  inputSchema: deployArgs,
  annotations: { destructiveHint: true },
};

/** Round 1 of deploy: where and how. */
export function deployPlanSchema(environment: (typeof ENVIRONMENTS)[number]) {
  return {
    type: 'object' as const,
    properties: {
      environment: { type: 'string', title: 'Environment', enum: [...ENVIRONMENTS], default: environment },
      strategy: {
        type: 'string',
        title: 'Strategy',
        oneOf: [
          { const: 'rolling', title: 'Rolling update' },
          { const: 'blue-green', title: 'Blue/green switch' },
        ],
        default: 'rolling',
      },
      runMigrations: { type: 'boolean', title: 'Run database migrations', default: false },
    },
    required: ['environment', 'strategy'],
  };
}
export const deployPlan = z.object({
  environment: z.enum(ENVIRONMENTS),
  strategy: z.enum(['rolling', 'blue-green']),
  runMigrations: z.boolean().optional(),
});
export type DeployPlan = z.infer<typeof deployPlan>;
export const deployPlanQuestion = (service: string) =>
  `Deploy ${service}: choose the environment and confirm the plan.`;
export const deployFinalQuestion = (service: string) =>
  `Really deploy ${service} to production? Live users will get this version.`;
export function deployDone(service: string, plan: DeployPlan): string {
  return (
    `Deployed ${service} to ${plan.environment} ` +
    `(${plan.strategy === 'rolling' ? 'rolling update' : 'blue/green switch'}` +
    `${plan.runMigrations ? ', migrations run' : ''}).`
  );
}
/**
 * What the answer to deploy's plan question leads to: the call's result
 * (refused, invalid, or done for staging), or a plan for production, which
 * needs the final confirmation first.
 */
export function deployPlanOutcome(
  answer: FormAnswer,
  service: string,
): { result: CallToolResult } | { confirm: DeployPlan } {
  if (answer.action !== 'accept') return { result: text(refused(answer.action, 'nothing was deployed')) };
  const plan = deployPlan.safeParse(answer.content ?? {});
  if (!plan.success)
    return {
      result: toolError(`The deployment plan is invalid: ${plan.error.issues.map((i) => i.message).join('; ')}`),
    };
  if (plan.data.environment !== 'production') return { result: text(deployDone(service, plan.data)) };
  return { confirm: plan.data };
}
/** What the answer to deploy's final confirmation leads to. */
export function deployFinalOutcome(action: 'accept' | Refusal, service: string, plan: DeployPlan): CallToolResult {
  return text(action === 'accept' ? deployDone(service, plan) : deployFinalRefused(action, service));
}
export function deployFinalRefused(action: Refusal, service: string): string {
  return action === 'decline'
    ? `Declined at the final confirmation: ${service} was not deployed to production.`
    : `Cancelled at the final confirmation (dialog dismissed): ${service} was not deployed to production.`;
}

export const calendarArgs = z.object({
  calendar: z.enum(['work', 'personal']).default('work').describe('Which calendar to connect'),
});
/** connect_calendar as both eras register it. */
export const calendarTool = {
  title: 'Connect a calendar',
  description: 'Connects a calendar through a consent page in the browser (URL mode).',
  inputSchema: calendarArgs,
};
export const calendarPurpose = (calendar: string) => `read your ${calendar} calendar to suggest time entries`;
export const calendarQuestion = (calendar: string) =>
  `Connect your ${calendar} calendar: open the Demo Calendar page and press "Authorize".`;
export const calendarAgain = (calendar: string) =>
  `The Demo Calendar has not seen your authorization for the ${calendar} calendar yet. Open the page again, ` +
  'press "Authorize", then continue.';
export const calendarConnected = (calendar: string) =>
  `Connected the ${calendar} calendar (authorized in the browser).`;
export const calendarNotConnected = 'the calendar was not connected';

export const addArgs = z.object({ a: z.number(), b: z.number() });
export const echoArgs = z.object({ text: z.string().max(10_000) });

/** The tools that ask nothing (same in both eras). */
export function registerPlainTools(server: McpServer): void {
  server.registerTool(
    'add_numbers',
    { title: 'Add numbers', description: 'Adds two numbers; asks nothing.', inputSchema: addArgs },
    async ({ a, b }) => text(`The sum of ${a} and ${b} is ${a + b}.`),
  );
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Returns its text; asks nothing.', inputSchema: echoArgs },
    async (args) => text(args.text),
  );
}
