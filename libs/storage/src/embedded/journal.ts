// Journal persists the embedded store under a data directory: a snapshot of the live keys and a
// write-ahead log of every write since, replayed at start. Compaction writes a new snapshot
// and truncates the log, so history older than the last snapshot does not survive a restart
// (watches from before it answer Expired, as after any compaction).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface JournalRecord {
  // r is the revision of the write; c the create revision (absent for a deletion).
  r: number;
  k: string;
  v?: string;
  c?: number;
}

export interface JournalSnapshot {
  revision: number;
  keys: JournalRecord[];
}

export interface JournalContents {
  snapshot: JournalSnapshot;
  records: JournalRecord[];
}

const snapshotFile = 'snapshot.json';
const logFile = 'wal.jsonl';

export class Journal {
  private fd: number;

  private constructor(private readonly dir: string) {
    this.fd = openSync(join(dir, logFile), 'a');
  }

  static open(dir: string): { journal: Journal; contents: JournalContents } {
    mkdirSync(dir, { recursive: true });
    const contents = Journal.read(dir);
    return { journal: new Journal(dir), contents };
  }

  append(record: JournalRecord): void {
    writeSync(this.fd, journalLine(record));
  }

  // rewrite replaces the snapshot and empties the log, atomically through a rename.
  rewrite(snapshot: JournalSnapshot): void {
    const tmp = join(this.dir, `${snapshotFile}.tmp`);
    writeFileSync(tmp, JSON.stringify(snapshot));
    const tmpFd = openSync(tmp, 'r');
    fsyncSync(tmpFd);
    closeSync(tmpFd);
    renameSync(tmp, join(this.dir, snapshotFile));
    closeSync(this.fd);
    this.fd = openSync(join(this.dir, logFile), 'w');
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }

  private static read(dir: string): JournalContents {
    const snapshotPath = join(dir, snapshotFile);
    const snapshot: JournalSnapshot = existsSync(snapshotPath)
      ? JSON.parse(readFileSync(snapshotPath, 'utf8'))
      : { revision: 0, keys: [] };
    const logPath = join(dir, logFile);
    const records: JournalRecord[] = [];
    if (existsSync(logPath)) {
      for (const line of readFileSync(logPath, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          const record = JSON.parse(line) as JournalRecord;
          if (record.r > snapshot.revision) records.push(record);
        } catch {
          // A torn last line from a crash mid-write: the write never completed.
          break;
        }
      }
    }
    return { snapshot, records };
  }
}

// journalLine is a record's line of the log, the bytes of `${JSON.stringify(record)}\n`, with
// the value's base64 (JSON that needs no escaping) copied once, into the line itself.
export function journalLine(record: JournalRecord): Buffer {
  const head = `{"r":${JSON.stringify(record.r)},"k":${JSON.stringify(record.k)}${record.v === undefined ? '' : ',"v":"'}`;
  const tail = `${record.v === undefined ? '' : '"'}${record.c === undefined ? '' : `,"c":${JSON.stringify(record.c)}`}}\n`;
  const value = record.v ?? '';
  const headBytes = Buffer.byteLength(head);
  const line = Buffer.allocUnsafe(headBytes + value.length + tail.length);
  line.write(head, 0, 'utf8');
  line.write(value, headBytes, 'latin1');
  line.write(tail, headBytes + value.length, 'latin1');
  return line;
}

export function encodeValue(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

export function decodeValue(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'base64'));
}
