// SharedEncodings holds a watch event's (or bookmark's) encodings by format and apiVersion,
// shared by the watchers that send it. Nearly every event is sent in one, so the first is kept
// in fields and a Map made only for a second: a Map of one costs some 280 bytes, paid by every
// event of a watch cache's window (100,000 at a create burst's end).
export class SharedEncodings {
  private firstKey: string | undefined = undefined;
  private firstValue: Uint8Array | undefined = undefined;
  private others: Map<string, Uint8Array> | undefined = undefined;

  get(key: string): Uint8Array | undefined {
    return key === this.firstKey ? this.firstValue : this.others?.get(key);
  }

  set(key: string, value: Uint8Array): void {
    if (this.firstKey === undefined || key === this.firstKey) {
      this.firstKey = key;
      this.firstValue = value;
      return;
    }
    (this.others ??= new Map()).set(key, value);
  }
}
