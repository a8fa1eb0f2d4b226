import { KeyValue } from '../object-store';

// Version is one write of a key; a null value is a deletion (tombstone).
export interface Version {
  readonly revision: number;
  readonly createRevision: number;
  readonly value: Uint8Array | null;
}

// KeyHistory holds the versions of one key in revision order: the MVCC record that lets the
// embedded store read and list at older revisions.
export class KeyHistory {
  // versions is made with its first version: an array grown by push from empty reserves 17
  // slots, some 130 bytes more for each key of a store whose keys are mostly written once.
  private versions: Version[] = [];

  constructor(readonly key: string) {}

  get latest(): Version | undefined {
    return this.versions[this.versions.length - 1];
  }

  // at returns the version visible at revision: the last one written at or before it.
  at(revision: number): Version | undefined {
    for (let i = this.versions.length - 1; i >= 0; i--) {
      if (this.versions[i].revision <= revision) return this.versions[i];
    }
    return undefined;
  }

  // liveAt returns the key-value visible at revision, or undefined if the key did not exist.
  liveAt(revision: number): KeyValue | undefined {
    const version = this.at(revision);
    return version && version.value ? toKeyValue(this.key, version) : undefined;
  }

  append(version: Version): void {
    if (this.versions.length === 0) this.versions = [version];
    else this.versions.push(version);
  }

  // compact drops the versions nobody can read once revision is compacted: everything before
  // the version visible at revision, and that version too if it is a tombstone. It returns
  // whether the key has no versions left.
  compact(revision: number): boolean {
    let visible = -1;
    for (let i = this.versions.length - 1; i >= 0; i--) {
      if (this.versions[i].revision <= revision) {
        visible = i;
        break;
      }
    }
    if (visible < 0) return this.versions.length === 0;
    const drop = this.versions[visible].value === null ? visible + 1 : visible;
    this.versions.splice(0, drop);
    return this.versions.length === 0;
  }
}

export function toKeyValue(key: string, version: Version): KeyValue {
  if (!version.value) throw new Error(`toKeyValue: ${key} at ${version.revision} is a tombstone`);
  return { key, value: version.value, revision: version.revision, createRevision: version.createRevision };
}
