// The outcomes both eras of the demo server return, tested where they are
// written once: what a refused, invalid or accepted booking or deploy plan
// comes to. The server checks an accepted form again, so the invalid cases
// (which a careful host never sends) are reached here directly.
import { describe, expect, it } from 'vitest';
import { bookingPrefill, bookingOutcome, deployFinalOutcome, deployPlanOutcome, type DeployPlan } from './tool-specs';

const textOf = (r: { content: unknown[] }) => (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');

describe('book_time outcome', () => {
  it('summarises a valid booking, refuses an invalid one, and says what a refusal did not do', () => {
    const ok = bookingOutcome({
      action: 'accept',
      content: {
        description: 'Wrote tests',
        day: '2026-12-02',
        hours: 1,
        activity: 'development',
        project: 'internal',
      },
    });
    expect(ok.isError).toBeUndefined();
    expect(textOf(ok)).toMatch(/^Booked 1 h on 2026-12-02 for Internal \(development, billable\): "Wrote tests"\.$/);

    const bad = bookingOutcome({ action: 'accept', content: { description: 'x', day: '2026-12-02', hours: 99 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^The booking was not saved: description: .*hours: /);

    expect(textOf(bookingOutcome({ action: 'decline' }))).toBe('Declined by the user: nothing was booked.');
    expect(textOf(bookingOutcome({ action: 'cancel' }))).toBe('Cancelled (dialog dismissed): nothing was booked.');
  });

  it('pre-fills only the arguments the agent gave', () => {
    expect(bookingPrefill({ hours: 2, description: undefined })).toEqual({ hours: 2 });
  });
});

describe('deploy outcomes', () => {
  const production: DeployPlan = { environment: 'production', strategy: 'rolling' };

  it('asks for the final confirmation only for a valid production plan', () => {
    expect(deployPlanOutcome({ action: 'accept', content: { ...production } }, 'api')).toEqual({ confirm: production });
    const staging = deployPlanOutcome(
      { action: 'accept', content: { environment: 'staging', strategy: 'rolling' } },
      'api',
    );
    expect('result' in staging && textOf(staging.result)).toBe('Deployed api to staging (rolling update).');
  });

  it('ends the call on a refused or invalid plan', () => {
    const declined = deployPlanOutcome({ action: 'decline' }, 'api');
    expect('result' in declined && textOf(declined.result)).toBe('Declined by the user: nothing was deployed.');
    const invalid = deployPlanOutcome(
      { action: 'accept', content: { environment: 'moon', strategy: 'rolling' } },
      'api',
    );
    expect('result' in invalid && invalid.result.isError).toBe(true);
    expect('result' in invalid && textOf(invalid.result)).toMatch(/^The deployment plan is invalid: /);
  });

  it('deploys on the final accept and says where a refusal stopped it', () => {
    expect(textOf(deployFinalOutcome('accept', 'api', production))).toBe(
      'Deployed api to production (rolling update).',
    );
    expect(textOf(deployFinalOutcome('cancel', 'api', production))).toBe(
      'Cancelled at the final confirmation (dialog dismissed): api was not deployed to production.',
    );
  });
});
