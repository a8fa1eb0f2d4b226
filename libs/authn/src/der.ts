// A small DER reader for the parts of an X.509 certificate that client-certificate authentication
// needs and node:crypto does not expose: the raw issuer and subject names (Go matches parents by
// their bytes), the subject's CN and O attributes, exact validity times, and the basic
// constraints, key usage, extended key usage and key identifier extensions.

interface Tlv {
  tag: number; // the identifier octet (class, constructed bit and low tag number)
  bytes: Buffer; // the whole element
  content: Buffer;
}

function readTlv(buf: Buffer, offset: number): Tlv {
  if (offset + 2 > buf.length) throw new Error('x509: malformed certificate');
  const tag = buf[offset];
  if ((tag & 0x1f) === 0x1f) throw new Error('x509: malformed certificate');
  let length = buf[offset + 1];
  let header = 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4 || offset + 2 + n > buf.length) throw new Error('x509: malformed certificate');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[offset + 2 + i];
    header += n;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new Error('x509: malformed certificate');
  return { tag, bytes: buf.subarray(offset, end), content: buf.subarray(offset + header, end) };
}

function children(tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = 0; offset < tlv.content.length; ) {
    const child = readTlv(tlv.content, offset);
    out.push(child);
    offset += child.bytes.length;
  }
  return out;
}

const Tag = {
  Boolean: 0x01,
  Integer: 0x02,
  BitString: 0x03,
  OctetString: 0x04,
  Oid: 0x06,
  Utf8String: 0x0c,
  NumericString: 0x12,
  PrintableString: 0x13,
  T61String: 0x14,
  Ia5String: 0x16,
  UtcTime: 0x17,
  GeneralizedTime: 0x18,
  UniversalString: 0x1c,
  BmpString: 0x1e,
  Sequence: 0x30,
  Set: 0x31,
} as const;

function oid(content: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  if (arcs.length === 0) return '';
  const first = arcs[0] < 80 ? Math.floor(arcs[0] / 40) : 2;
  return [first, arcs[0] - first * 40, ...arcs.slice(1)].join('.');
}

function directoryString(tlv: Tlv): string | undefined {
  switch (tlv.tag) {
    case Tag.Utf8String:
    case Tag.PrintableString:
    case Tag.Ia5String:
    case Tag.NumericString:
      return tlv.content.toString('utf8');
    case Tag.T61String:
      return tlv.content.toString('latin1');
    case Tag.BmpString:
      return Buffer.from(tlv.content).swap16().toString('utf16le');
    case Tag.UniversalString: {
      let s = '';
      for (let i = 0; i + 4 <= tlv.content.length; i += 4) s += String.fromCodePoint(tlv.content.readUInt32BE(i));
      return s;
    }
    default:
      return undefined;
  }
}

function time(tlv: Tlv): number {
  const s = tlv.content.toString('latin1');
  const m = tlv.tag === Tag.UtcTime ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s) : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) throw new Error('x509: malformed validity');
  let year = Number(m[1]);
  if (tlv.tag === Tag.UtcTime) year += year < 50 ? 2000 : 1900;
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

function integer(content: Buffer): bigint {
  if (content.length === 0) return 0n;
  let n = BigInt(`0x${content.toString('hex')}`);
  if (content[0] & 0x80) n -= 1n << BigInt(content.length * 8);
  return n;
}

export const ExtKeyUsage = {
  Any: '2.5.29.37.0',
  ServerAuth: '1.3.6.1.5.5.7.3.1',
  ClientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

const KeyUsageCertSign = 5; // the bit number of keyCertSign in the KeyUsage BIT STRING

// CertificateFields are the parsed fields, named as Go's x509.Certificate names them.
export interface CertificateFields {
  version: number;
  serialNumber: bigint;
  signatureAlgorithm: string;
  rawIssuer: Buffer;
  rawSubject: Buffer;
  subject: { commonName: string; organization: string[] };
  notBefore: number;
  notAfter: number;
  basicConstraintsValid: boolean;
  isCA: boolean;
  maxPathLen: number; // -1 when unset
  keyUsageCertSign: boolean | undefined; // undefined when the certificate has no KeyUsage extension
  extKeyUsage: string[];
  subjectKeyId: Buffer;
  authorityKeyId: Buffer;
}

// subjectFields is pkix.Name.FillFromRDNSequence for CN (the last one wins) and O (all, in order).
function subjectFields(name: Tlv): { commonName: string; organization: string[] } {
  let commonName = '';
  const organization: string[] = [];
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) continue;
      const text = directoryString(value);
      if (text === undefined) continue;
      const id = oid(type.content);
      if (id === '2.5.4.3') commonName = text;
      else if (id === '2.5.4.10') organization.push(text);
    }
  }
  return { commonName, organization };
}

export function parseCertificateFields(der: Buffer): CertificateFields {
  const [tbs, signatureAlgorithm] = children(readTlv(der, 0));
  if (!tbs || !signatureAlgorithm) throw new Error('x509: malformed certificate');
  const parts = children(tbs);
  let i = 0;
  let version = 1;
  if (parts[0]?.tag === 0xa0) {
    version = Number(integer(children(parts[0])[0].content)) + 1;
    i++;
  }
  const serial = parts[i++];
  i++; // the inner signature algorithm
  const issuer = parts[i++];
  const validity = parts[i++];
  const subject = parts[i++];
  i++; // subjectPublicKeyInfo
  if (!serial || !issuer || !validity || !subject) throw new Error('x509: malformed certificate');
  const [notBefore, notAfter] = children(validity);
  const fields: CertificateFields = {
    version,
    serialNumber: integer(serial.content),
    signatureAlgorithm: oid(children(signatureAlgorithm)[0]?.content ?? Buffer.alloc(0)),
    rawIssuer: issuer.bytes,
    rawSubject: subject.bytes,
    subject: subjectFields(subject),
    notBefore: time(notBefore),
    notAfter: time(notAfter),
    basicConstraintsValid: false,
    isCA: false,
    maxPathLen: -1,
    keyUsageCertSign: undefined,
    extKeyUsage: [],
    subjectKeyId: Buffer.alloc(0),
    authorityKeyId: Buffer.alloc(0),
  };
  const extensions = parts.slice(i).find((p) => p.tag === 0xa3);
  if (extensions) for (const ext of children(children(extensions)[0])) readExtension(fields, ext);
  return fields;
}

function readExtension(fields: CertificateFields, ext: Tlv): void {
  const parts = children(ext);
  const id = oid(parts[0].content);
  const value = parts[parts.length - 1];
  if (value.tag !== Tag.OctetString) return;
  const inner = () => readTlv(value.content, 0);
  switch (id) {
    case '2.5.29.19': {
      fields.basicConstraintsValid = true;
      for (const c of children(inner())) {
        if (c.tag === Tag.Boolean) fields.isCA = c.content[0] !== 0;
        else if (c.tag === Tag.Integer) fields.maxPathLen = Number(integer(c.content));
      }
      break;
    }
    case '2.5.29.15': {
      const bits = inner().content; // first byte counts the unused bits
      const byte = 1 + (KeyUsageCertSign >> 3);
      fields.keyUsageCertSign = bits.length > byte && (bits[byte] & (0x80 >> (KeyUsageCertSign & 7))) !== 0;
      break;
    }
    case '2.5.29.37':
      fields.extKeyUsage = children(inner()).map((c) => oid(c.content));
      break;
    case '2.5.29.14':
      fields.subjectKeyId = Buffer.from(inner().content);
      break;
    case '2.5.29.35': {
      const keyId = children(inner()).find((c) => c.tag === 0x80);
      if (keyId) fields.authorityKeyId = Buffer.from(keyId.content);
      break;
    }
  }
}

// pemBlocks returns the DER bytes of every PEM block of the given type, in order.
export function pemBlocks(pem: string, type: string): Buffer[] {
  const re = new RegExp(`-----BEGIN ${type}-----([\\s\\S]*?)-----END ${type}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
}
