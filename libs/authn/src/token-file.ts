// Static token authentication, after apiserver/pkg/authentication/token/tokenfile: the contents of
// --token-auth-file are CSV records `token,user,uid[,"group1,group2"]` read with Go's encoding/csv
// rules (quotes, doubled quotes, no comments, blank lines skipped). The caller reads the file.
import { newUserInfo, UserInfo } from './user';

export interface StaticTokens {
  authenticateToken(token: string): UserInfo | null;
  // warnings are what the Kubernetes parser logs: empty and duplicate tokens.
  readonly warnings: readonly string[];
  readonly size: number;
}

export function parseTokenFile(contents: string, path = ''): StaticTokens {
  const tokens = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const record of readCsv(contents)) {
    if (record.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    recordNum++;
    const [token, name, uid] = record;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token)) warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    // strings.Split keeps an empty fourth column as one empty group, as Kubernetes does.
    tokens.set(token, newUserInfo(name, { uid, groups: record.length >= 4 ? record[3].split(',') : [] }));
  }
  return {
    authenticateToken(token) {
      const user = tokens.get(token);
      return user ? newUserInfo(user.name, user) : null;
    },
    warnings,
    size: tokens.size,
  };
}

// CsvParseError is encoding/csv's ParseError, with its message format.
export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(
      startLine !== line
        ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
        : `parse error on line ${line}, column ${column}: ${reason}`,
    );
    this.name = 'CsvParseError';
  }
}

const ErrBareQuote = 'bare " in non-quoted-field';
const ErrQuote = 'extraneous or missing " in quoted-field';

// readCsv is csv.Reader with FieldsPerRecord -1: each record's fields, lines ending in \n or \r\n.
// Columns are 1-based byte offsets, as Go reports them.
export function* readCsv(contents: string): Generator<string[]> {
  const input = Buffer.from(contents, 'utf8');
  let offset = 0;
  let numLine = 0;
  const readLine = (): Buffer | undefined => {
    if (offset >= input.length) return undefined;
    const nl = input.indexOf(0x0a, offset);
    let line = input.subarray(offset, nl < 0 ? input.length : nl + 1);
    offset += line.length;
    numLine++;
    const n = line.length;
    if (nl < 0) {
      if (line[n - 1] === 0x0d) line = line.subarray(0, n - 1); // trailing \r before EOF is dropped
    } else if (n >= 2 && line[n - 2] === 0x0d) {
      line = Buffer.concat([line.subarray(0, n - 2), Buffer.from('\n')]);
    }
    return line;
  };
  const nlLength = (b: Buffer) => (b.length > 0 && b[b.length - 1] === 0x0a ? 1 : 0);

  for (;;) {
    let line = readLine();
    while (line !== undefined && line.length === nlLength(line)) line = readLine(); // skip empty lines
    if (line === undefined) return;
    const recLine = numLine;
    const fields: string[] = [];
    let col = 1;
    let buf: Buffer[] = [];
    parseField: for (;;) {
      if (line.length === 0 || line[0] !== 0x22) {
        const comma = line.indexOf(0x2c);
        const field = comma >= 0 ? line.subarray(0, comma) : line.subarray(0, line.length - nlLength(line));
        const quote = field.indexOf(0x22);
        if (quote >= 0) throw new CsvParseError(recLine, numLine, col + quote, ErrBareQuote);
        fields.push(field.toString('utf8'));
        if (comma < 0) break;
        line = line.subarray(comma + 1);
        col += comma + 1;
        continue;
      }
      line = line.subarray(1);
      col += 1;
      buf = [];
      for (;;) {
        const quote = line.indexOf(0x22);
        if (quote >= 0) {
          buf.push(line.subarray(0, quote));
          line = line.subarray(quote + 1);
          col += quote + 1;
          if (line[0] === 0x22) {
            buf.push(Buffer.from('"'));
            line = line.subarray(1);
            col += 1;
          } else if (line[0] === 0x2c) {
            line = line.subarray(1);
            col += 1;
            fields.push(Buffer.concat(buf).toString('utf8'));
            continue parseField;
          } else if (nlLength(line) === line.length) {
            fields.push(Buffer.concat(buf).toString('utf8'));
            break parseField;
          } else {
            throw new CsvParseError(recLine, numLine, col, ErrQuote);
          }
        } else if (line.length > 0) {
          buf.push(line); // the quoted field continues on the next line
          col += line.length;
          const next = readLine();
          if (next === undefined) throw new CsvParseError(recLine, numLine, col, ErrQuote);
          line = next;
          col = 1;
        } else {
          throw new CsvParseError(recLine, numLine, col, ErrQuote);
        }
      }
    }
    yield fields;
  }
}
