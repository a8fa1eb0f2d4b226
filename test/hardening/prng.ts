// Prng is a small seeded pseudo-random generator (mulberry32): the same seed gives the same
// sequence on every machine, so a failing generated case is found again from the seed alone.
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  // next is a float in [0, 1).
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  // int is an integer in [0, n).
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  // string is `length` characters drawn from the alphabet.
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

// seedFromEnv reads HARDENING_SEED (decimal or 0x hex), or falls back to the given seed.
export function seedFromEnv(fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const text = env.HARDENING_SEED;
  if (text === undefined || text === '') return fallback;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`HARDENING_SEED must be an integer in [0, 2^32): ${text}`);
  return seed;
}
