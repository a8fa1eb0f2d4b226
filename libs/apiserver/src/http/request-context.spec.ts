import { RequestContext } from './request-context';

describe('RequestContext', () => {
  it('is not done until it ends, then calls each listener once', () => {
    const context = new RequestContext();
    const calls: string[] = [];
    context.onDone(() => calls.push('a'));
    context.onDone(() => calls.push('b'));
    expect(context.done).toBe(false);
    expect(calls).toEqual([]);
    context.end();
    context.end();
    expect(context.done).toBe(true);
    expect(calls).toEqual(['a', 'b']);
  });

  it('calls a listener added after it ended at once', () => {
    const context = new RequestContext();
    context.end();
    let called = 0;
    context.onDone(() => called++);
    expect(called).toBe(1);
    context.end();
    expect(called).toBe(1);
  });

  it('does not call a listener that was removed', () => {
    const context = new RequestContext();
    const calls: string[] = [];
    const removeA = context.onDone(() => calls.push('a'));
    context.onDone(() => calls.push('b'));
    removeA();
    removeA();
    context.end();
    expect(calls).toEqual(['b']);
  });
});
