import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeValue, Journal, journalLine, JournalRecord } from './journal';

describe('journalLine', () => {
  const value = encodeValue(new TextEncoder().encode('{"kind":"StorageClass","metadata":{"name":"fast"}}'));
  const records: JournalRecord[] = [
    { r: 7, k: '/registry/storage.k8s.io/storageclasses/fast', v: value, c: 7 },
    { r: 8, k: '/registry/storage.k8s.io/storageclasses/fast', v: value, c: 7 },
    { r: 9, k: '/registry/storage.k8s.io/storageclasses/fast' },
    { r: 10, k: '/registry/configmaps/ns/naïve-"quoted"\\-\u2028', v: '', c: 10 },
  ];

  it.each(records)('writes the bytes of the record as JSON, one line (%#)', (record) => {
    expect(journalLine(record).toString('utf8')).toBe(`${JSON.stringify(record)}\n`);
  });

  it('reads back what it appended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-journal-'));
    try {
      const { journal } = Journal.open(dir);
      for (const record of records) journal.append(record);
      journal.close();
      const reopened = Journal.open(dir);
      reopened.journal.close();
      expect(reopened.contents.records).toEqual(records);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
