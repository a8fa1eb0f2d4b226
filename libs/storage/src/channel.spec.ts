import { Channel } from './channel';

describe('Channel', () => {
  it('hands an iterator the queued items, then each pushed one, and ends on close', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of channel) seen.push(item);
    })();
    await Promise.resolve();
    channel.push(2);
    channel.close();
    await reading;
    expect(seen).toEqual([1, 2]);
  });

  it('hands a consumer the queued items at once, then each pushed one within the push', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    channel.push(2);
    const seen: number[] = [];
    const consuming = channel.consume((item) => seen.push(item));
    expect(seen).toEqual([1, 2]);
    channel.push(3);
    expect(seen).toEqual([1, 2, 3]);
    channel.close();
    channel.push(4);
    await consuming;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('rejects a consumer with the failure after the items queued before it', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    channel.fail(new Error('compacted'));
    const seen: number[] = [];
    await expect(channel.consume((item) => seen.push(item))).rejects.toThrow('compacted');
    expect(seen).toEqual([1]);
  });

  it('rejects a consumer failed while it consumes, and calls onClose once', async () => {
    let closes = 0;
    const channel = new Channel<number>(() => closes++);
    const consuming = channel.consume(() => undefined);
    channel.fail(new Error('storage gone'));
    await expect(consuming).rejects.toThrow('storage gone');
    channel.close();
    expect(closes).toBe(1);
  });

  it('closes the channel when the consumer throws, and rejects with what it threw', async () => {
    let closes = 0;
    const channel = new Channel<number>(() => closes++);
    const seen: number[] = [];
    const consuming = channel.consume((item) => {
      if (item === 2) throw new Error('cannot encode');
      seen.push(item);
    });
    channel.push(1);
    channel.push(2);
    channel.push(3);
    await expect(consuming).rejects.toThrow('cannot encode');
    expect(seen).toEqual([1]);
    expect(channel.isClosed).toBe(true);
    expect(closes).toBe(1);
  });

  it('resolves a consumer of a channel closed before it', async () => {
    const channel = new Channel<number>();
    channel.push(1);
    channel.close();
    const seen: number[] = [];
    await channel.consume((item) => seen.push(item));
    expect(seen).toEqual([]);
  });
});
