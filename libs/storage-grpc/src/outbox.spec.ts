import { Outbox } from './transports';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Outbox', () => {
  const written: string[] = [];
  const outbox = new Outbox<string>(
    (message) => written.push(message) > 0,
    (messages) => `[${messages.join(',')}]`,
  );

  beforeEach(() => {
    written.length = 0;
  });

  it('writes a message pushed alone as it is, at the end of the turn', async () => {
    outbox.push('a');
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual(['a']);
  });

  it('writes the messages of one turn as one batch, in order', async () => {
    outbox.push('a');
    outbox.push('b');
    await Promise.resolve();
    outbox.push('c');
    expect(outbox.size).toBe(3);
    await nextTurn();
    expect(written).toEqual(['[a,b,c]']);
    outbox.push('d');
    await nextTurn();
    expect(written).toEqual(['[a,b,c]', 'd']);
  });

  it('writes a message pushed alone at once, unless others wait already', async () => {
    outbox.push('a', true);
    expect(written).toEqual(['a']);
    outbox.push('b');
    outbox.push('c', true);
    expect(written).toEqual(['a']);
    await nextTurn();
    expect(written).toEqual(['a', '[b,c]']);
  });

  it('writes what it holds at once on flush, and nothing twice', async () => {
    outbox.push('a');
    outbox.push('b');
    outbox.flush();
    expect(written).toEqual(['[a,b]']);
    expect(outbox.size).toBe(0);
    await nextTurn();
    expect(written).toEqual(['[a,b]']);
  });

  it('holds what follows a write answered false until resume, then writes it as one batch', async () => {
    let full = true;
    const held: string[] = [];
    const backPressured = new Outbox<string>(
      (message) => {
        held.push(message);
        return !full;
      },
      (messages) => `[${messages.join(',')}]`,
    );
    backPressured.push('a', true);
    expect(backPressured.waitingForDrain).toBe(true);
    backPressured.push('b', true);
    backPressured.push('c');
    await nextTurn();
    expect(held).toEqual(['a']);
    expect(backPressured.size).toBe(2);
    full = false;
    backPressured.resume();
    expect(held).toEqual(['a', '[b,c]']);
    expect(backPressured.waitingForDrain).toBe(false);
    backPressured.push('d', true);
    expect(held).toEqual(['a', '[b,c]', 'd']);
  });
});
