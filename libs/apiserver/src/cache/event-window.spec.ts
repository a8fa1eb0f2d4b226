import { FakeClock } from '@plinth/testing';
import { defaultLowerBound, defaultUpperBound, eventFreshMs, EventWindow, WindowEvent } from './event-window';

function revisions(window: EventWindow<WindowEvent>): number[] {
  return Array.from({ length: window.length }, (_, index) => window.at(index).revision);
}

// fill pushes events with the next revisions, returning the newest one dropped.
function fill(window: EventWindow<WindowEvent>, from: number, count: number): WindowEvent | undefined {
  let dropped: WindowEvent | undefined;
  for (let revision = from; revision < from + count; revision++) dropped = window.push({ revision }) ?? dropped;
  return dropped;
}

describe('EventWindow', () => {
  it('starts at kube-apiserver lower bound and keeps events oldest first', () => {
    const window = new EventWindow(new FakeClock());
    expect(window.capacity).toBe(defaultLowerBound);
    expect(fill(window, 1, 3)).toBeUndefined();
    expect(revisions(window)).toEqual([1, 2, 3]);
  });

  it('doubles while its oldest event is fresh, up to the upper bound, dropping nothing', () => {
    const window = new EventWindow(new FakeClock());
    expect(fill(window, 1, 101)).toBeUndefined();
    expect(window.capacity).toBe(200);
    expect(fill(window, 102, defaultUpperBound - 101)).toBeUndefined();
    expect(window.capacity).toBe(defaultUpperBound);
    expect(window.length).toBe(defaultUpperBound);
    expect(window.push({ revision: defaultUpperBound + 1 })).toEqual({ revision: 1 });
    expect(window.capacity).toBe(defaultUpperBound);
    expect(window.at(0).revision).toBe(2);
  });

  it('drops its oldest event, at the same capacity, when that event is stale but the newest quarter is not', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock);
    fill(window, 1, 100);
    clock.advance(eventFreshMs);
    expect(window.push({ revision: 101 })).toEqual({ revision: 1 });
    expect(window.capacity).toBe(100);
    expect(revisions(window)).toEqual(Array.from({ length: 100 }, (_, index) => index + 2));
  });

  it('halves, down to the lower bound, once even its newest quarter is stale', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock);
    fill(window, 1, 400);
    expect(window.capacity).toBe(400);
    clock.advance(eventFreshMs + 1);
    // Full and stale: it keeps the newest 200, then drops the oldest of them for the new one.
    expect(window.push({ revision: 401 })).toEqual({ revision: 201 });
    expect(window.capacity).toBe(200);
    expect(revisions(window)).toEqual(Array.from({ length: 200 }, (_, index) => index + 202));
    // Still full of stale events: it halves again at the next one, then stays at the bound.
    fill(window, 402, 1);
    expect(window.capacity).toBe(defaultLowerBound);
    clock.advance(eventFreshMs + 1);
    expect(window.push({ revision: 403 })?.revision).toBe(303);
    expect(window.capacity).toBe(defaultLowerBound);
  });

  it('keeps its capacity while its newest quarter is fresh, though its oldest event is stale', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock);
    fill(window, 1, 150);
    clock.advance(40_000);
    fill(window, 151, 50);
    expect(window.capacity).toBe(200);
    clock.advance(eventFreshMs - 39_000);
    expect(window.push({ revision: 201 })).toEqual({ revision: 1 });
    expect(window.capacity).toBe(200);
  });

  it('grows again under a burst after it shrank', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock);
    fill(window, 1, 200);
    clock.advance(eventFreshMs + 1);
    fill(window, 201, 1);
    expect(window.capacity).toBe(100);
    clock.advance(eventFreshMs + 1);
    // The window holds 100 stale events: the burst first replaces them, then doubles.
    expect(fill(window, 202, 300)?.revision).toBe(201);
    expect(window.capacity).toBe(400);
    expect(window.at(0).revision).toBe(202);
  });

  it('keeps at most a smaller upper bound, which is its lower bound too', () => {
    const window = new EventWindow(new FakeClock(), 2);
    expect(window.capacity).toBe(2);
    expect(fill(window, 1, 3)).toEqual({ revision: 1 });
    expect(revisions(window)).toEqual([2, 3]);
  });

  it('drops its oldest events while their stored bytes and the new event\'s pass the byte bound', () => {
    const window = new EventWindow(new FakeClock(), defaultUpperBound, 1000);
    window.push({ revision: 1 }, 400);
    window.push({ revision: 2 }, 400);
    expect(window.storedBytes).toBe(800);
    expect(window.push({ revision: 3 }, 300)).toEqual({ revision: 1 });
    expect(revisions(window)).toEqual([2, 3]);
    expect(window.storedBytes).toBe(700);
    // An event larger than the bound is kept alone.
    expect(window.push({ revision: 4 }, 5000)).toEqual({ revision: 3 });
    expect(revisions(window)).toEqual([4]);
    expect(window.push({ revision: 5 }, 10)).toEqual({ revision: 4 });
    expect(window.storedBytes).toBe(10);
  });

  it('counts no bytes of the events a shrink or a full window drops', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock, defaultUpperBound, 1_000_000);
    for (let revision = 1; revision <= 200; revision++) window.push({ revision }, 10);
    clock.advance(eventFreshMs + 1);
    window.push({ revision: 201 }, 10);
    expect(window.capacity).toBe(100);
    expect(window.storedBytes).toBe(1000);
  });

  it('keeps nothing with an upper bound of 0', () => {
    const window = new EventWindow(new FakeClock(), 0);
    expect(window.push({ revision: 7 })).toEqual({ revision: 7 });
    expect(window.length).toBe(0);
    expect(window.firstAfter(0)).toBe(0);
  });

  it('finds the first event after a revision across the ring wrapping', () => {
    const clock = new FakeClock();
    const window = new EventWindow(clock);
    fill(window, 1, 100);
    clock.advance(eventFreshMs);
    for (let revision = 101; revision <= 130; revision++) window.push({ revision: revision * 2 });
    expect(window.at(0).revision).toBe(31);
    expect(window.firstAfter(0)).toBe(0);
    expect(window.at(window.firstAfter(100)).revision).toBe(202);
    expect(window.at(window.firstAfter(201)).revision).toBe(202);
    expect(window.firstAfter(260)).toBe(window.length);
  });

  it('starts anew from the lower bound when cleared', () => {
    const window = new EventWindow(new FakeClock());
    fill(window, 1, 300);
    window.clear();
    expect(window.capacity).toBe(defaultLowerBound);
    expect(window.length).toBe(0);
    expect(fill(window, 301, 2)).toBeUndefined();
    expect(revisions(window)).toEqual([301, 302]);
  });
});
