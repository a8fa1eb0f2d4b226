// keptUtf8 is the UTF-8 encoding of text in memory of its own, for bytes a cache keeps for
// long (a watch event's shared encoding, a list item's JSON). Buffer.from cuts a string under
// 4 KiB out of node's shared 8 KiB pool, and one kept slice keeps its whole slab alive: at
// 100,000 Leases the all-in-one's watch window held some 2 KB of slabs an event for encodings
// of about 600 bytes (issue #14). TextEncoder allocates exactly what the bytes take.
const encoder = new TextEncoder();

export function keptUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}
