import { WatcherSet } from './watcher-set';

describe('WatcherSet', () => {
  it('lists the watchers of each connection together, connections in the order they came', () => {
    const set = new WatcherSet<string>();
    const first = {};
    const second = {};
    set.add('a1', first);
    set.add('b1', second);
    set.add('a2', first);
    set.add('b2', second);
    set.add('a3', first);
    expect(set.snapshot()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(set.size).toBe(5);
  });

  it('counts a watcher once and forgets a connection whose watchers all left', () => {
    const set = new WatcherSet<string>();
    const connection = {};
    const other = {};
    set.add('a', connection);
    set.add('a', connection);
    set.add('b', other);
    set.delete('a', connection);
    set.delete('a', connection);
    set.delete('b', connection);
    expect(set.size).toBe(1);
    expect(set.snapshot()).toEqual(['b']);
    set.add('c', connection);
    expect(set.snapshot()).toEqual(['b', 'c']);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.snapshot()).toEqual([]);
  });
});
