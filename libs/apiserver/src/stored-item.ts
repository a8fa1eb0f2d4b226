// StoredItem is a built-in object's list item as a view of its stored bytes: a stored object is
// its JSON without metadata.resourceVersion (registry's codec), which reading it back appends as
// metadata's last member, and a built-in list item is that object without apiVersion and kind. So
// the item is the stored bytes after apiVersion and kind (their first two members), with the
// resourceVersion written before metadata's closing brace: the watch cache keeps the bytes
// storage holds (the very bytes, in the all-in-one's embedded store) rather than a second copy.
export interface StoredItem {
  readonly bytes: Uint8Array;
  // start is where the item's members begin (after apiVersion and kind and their comma).
  readonly start: number;
  // metadataEnd is the offset of metadata's closing brace.
  readonly metadataEnd: number;
}

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const comma = 0x2c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

const apiVersionKey = Buffer.from('"apiVersion"');
const kindKey = Buffer.from('"kind"');
const metadataKey = Buffer.from('"metadata"');
const resourceVersionKey = Buffer.from('"resourceVersion"');

// locateStoredItem finds the item in stored bytes written as JSON.stringify writes (no
// whitespace), or answers null when they are not laid out as above (apiVersion and kind not
// first, no metadata object, nothing after them).
export function locateStoredItem(bytes: Uint8Array): StoredItem | null {
  if (bytes[0] !== openBrace || bytes[bytes.length - 1] !== closeBrace) return null;
  let index = 1;
  let members = 0;
  let start = -1;
  let metadataEnd = -1;
  while (index < bytes.length - 1) {
    const keyStart = index;
    index = stringEnd(bytes, index);
    if (index < 0 || bytes[index] !== colon) return null;
    const typeMeta = isKey(bytes, keyStart, index, apiVersionKey) || isKey(bytes, keyStart, index, kindKey);
    if (members < 2 && !typeMeta) return null;
    const valueStart = index + 1;
    index = valueEnd(bytes, valueStart);
    if (index < 0) return null;
    if (isKey(bytes, keyStart, valueStart - 1, metadataKey)) {
      // Metadata stored with a resourceVersion (not written by this codec) is read back with it
      // where it stands: such bytes are no item.
      if (bytes[valueStart] !== openBrace || hasMember(bytes, valueStart, resourceVersionKey)) return null;
      metadataEnd = index - 1;
    }
    members++;
    if (members === 2) start = index + 1;
    if (bytes[index] === comma) index++;
    else if (index !== bytes.length - 1) return null;
  }
  if (members <= 2 || metadataEnd < start) return null;
  return { bytes, start, metadataEnd };
}

// The resourceVersion member is written before metadata's closing brace (after a comma unless
// metadata is empty), its value being the object's resourceVersion: digits, written byte by byte.
const revisionName = Buffer.from('"resourceVersion":"');

// storedItemLength is the item's length in bytes with the given resourceVersion (digits, as a
// revision read back is), or -1 for another one, which the item cannot be written with.
export function storedItemLength(item: StoredItem, resourceVersion: string): number {
  if (!isDigits(resourceVersion)) return -1;
  const comma = item.bytes[item.metadataEnd - 1] === openBrace ? 0 : 1;
  return 1 + item.bytes.length - item.start + comma + revisionName.length + resourceVersion.length + 1;
}

// writeStoredItem writes the item's JSON into out at offset at, and answers the offset after it:
// the stored bytes in one copy, then what follows metadata moved on to make room for the
// resourceVersion. The copy is of the whole stored bytes when they fit after floor (their
// apiVersion and kind then land before at, over bytes the caller writes afterwards), saving a
// view of them.
export function writeStoredItem(item: StoredItem, resourceVersion: string, out: Uint8Array, at: number, floor = at): number {
  const { bytes, start, metadataEnd } = item;
  const copied = at + 1;
  if (copied - start >= floor) out.set(bytes, copied - start);
  else out.set(bytes.subarray(start), copied);
  out[at] = openBrace;
  let offset = copied + metadataEnd - start;
  const tailLength = bytes.length - metadataEnd;
  const emptyMetadata = bytes[metadataEnd - 1] === openBrace;
  const member = (emptyMetadata ? 0 : 1) + revisionName.length + resourceVersion.length + 1;
  out.copyWithin(offset + member, offset, offset + tailLength);
  if (!emptyMetadata) out[offset++] = comma;
  // Byte by byte: for so few bytes a loop costs less than a call of set.
  for (let index = 0; index < revisionName.length; index++) out[offset++] = revisionName[index];
  for (let index = 0; index < resourceVersion.length; index++) out[offset++] = resourceVersion.charCodeAt(index);
  out[offset++] = quote;
  return offset + tailLength;
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

// hasMember tells whether the JSON object starting at start has a member named key.
function hasMember(bytes: Uint8Array, start: number, key: Uint8Array): boolean {
  let index = start + 1;
  while (bytes[index] === quote) {
    const keyStart = index;
    index = stringEnd(bytes, index);
    if (index < 0) return false;
    if (isKey(bytes, keyStart, index, key)) return true;
    index = valueEnd(bytes, index + 1);
    if (index < 0 || bytes[index] !== comma) return false;
    index++;
  }
  return false;
}

function isKey(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key[i]) return false;
  return true;
}

// stringEnd is the offset after the JSON string starting at start (-1 when there is none).
function stringEnd(bytes: Uint8Array, start: number): number {
  if (bytes[start] !== quote) return -1;
  for (let index = start + 1; index < bytes.length; index++) {
    if (bytes[index] === backslash) index++;
    else if (bytes[index] === quote) return index + 1;
  }
  return -1;
}

// valueEnd is the offset after the JSON value starting at start (-1 when it does not end).
function valueEnd(bytes: Uint8Array, start: number): number {
  const first = bytes[start];
  if (first === quote) return stringEnd(bytes, start);
  if (first !== openBrace && first !== openBracket) {
    let index = start;
    while (index < bytes.length && bytes[index] !== comma && bytes[index] !== closeBrace && bytes[index] !== closeBracket) index++;
    return index > start ? index : -1;
  }
  let depth = 0;
  for (let index = start; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === quote) {
      index = stringEnd(bytes, index) - 1;
      if (index < 0) return -1;
    } else if (byte === openBrace || byte === openBracket) {
      depth++;
    } else if (byte === closeBrace || byte === closeBracket) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}
