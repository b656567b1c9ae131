import { describe, expect, it } from 'vitest';
import { CallCancel } from './call-cancel';

describe('CallCancel', () => {
  it('tells every listener once, functions and objects alike, in the order they were added', () => {
    const heard: string[] = [];
    const cancel = new CallCancel();
    const child = new CallCancel();
    cancel.listen((r) => heard.push(`fn:${String(r)}`));
    cancel.listen(child);
    cancel.listen({ abort: (r: unknown) => heard.push(`obj:${String(r)}`) });
    child.listen((r) => heard.push(`child:${String(r)}`));
    cancel.abort('why');
    cancel.abort('again');
    expect(heard).toEqual(['fn:why', 'child:why', 'obj:why']);
    expect([cancel.aborted, cancel.reason, child.aborted, child.reason]).toEqual([true, 'why', true, 'why']);
  });

  it('a listener taken back is not told; listening once cancelled tells nothing', () => {
    const cancel = new CallCancel();
    const child = new CallCancel();
    const other = new CallCancel();
    cancel.listen(child);
    cancel.listen(other);
    cancel.unlisten(child);
    cancel.unlisten(new CallCancel()); // never added: nothing changes
    cancel.abort('x');
    expect([child.aborted, other.aborted]).toEqual([false, true]);
    const late = new CallCancel();
    cancel.listen(late);
    expect(late.aborted).toBe(false);
  });

  it('its AbortSignal follows it, made before or after the cancel', () => {
    const before = new CallCancel();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    before.abort('stop');
    expect([signal.aborted, signal.reason]).toEqual([true, 'stop']);
    expect(before.signal).toBe(signal);
    const after = new CallCancel();
    after.abort('late');
    expect([after.signal.aborted, after.signal.reason]).toEqual([true, 'late']);
  });
});
