import { KeyHistory } from './key-history';

const value = (text: string) => new TextEncoder().encode(text);

describe('KeyHistory', () => {
  it('reads the version visible at each revision, and none before the first or after a deletion', () => {
    const history = new KeyHistory('/k');
    history.append({ revision: 3, createRevision: 3, value: value('a') });
    history.append({ revision: 5, createRevision: 3, value: value('b') });
    history.append({ revision: 8, createRevision: 3, value: null });
    expect(history.liveAt(2)).toBeUndefined();
    expect(history.liveAt(4)).toEqual({ key: '/k', value: value('a'), revision: 3, createRevision: 3 });
    expect(history.liveAt(7)?.revision).toBe(5);
    expect(history.liveAt(9)).toBeUndefined();
    expect(history.latest?.revision).toBe(8);
  });

  it('drops what compaction hides, and starts again when the key is written after it emptied', () => {
    const history = new KeyHistory('/k');
    history.append({ revision: 3, createRevision: 3, value: value('a') });
    history.append({ revision: 5, createRevision: 3, value: null });
    expect(history.compact(6)).toBe(true);
    expect(history.latest).toBeUndefined();
    history.append({ revision: 9, createRevision: 9, value: value('c') });
    history.append({ revision: 10, createRevision: 9, value: value('d') });
    expect(history.liveAt(9)?.value).toEqual(value('c'));
    expect(history.liveAt(10)?.value).toEqual(value('d'));
    expect(history.compact(10)).toBe(false);
    expect(history.liveAt(9)).toBeUndefined();
    expect(history.latest?.revision).toBe(10);
  });
});
