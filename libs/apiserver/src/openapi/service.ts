// OpenApiDocuments keeps the serialized documents and their hashes. kubectl asks for them on
// most commands, so they are built once and rebuilt only when the catalog changes: a different
// set of definitions (a custom resource added or removed) is noticed on the next request, and
// invalidate() forces a rebuild after an in-place change.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { ResourceDefinition } from '@plinth/registry';
import { aliasDefinitions } from '../aliases';
import { CatalogView, defaultInfo, groupVersionDefinitions, OpenApiInfo, openApiV3Discovery, openApiV3Document, PublishedDefinitions, swaggerDocument } from './documents';
import { encodeSwaggerProtobuf } from './v2-protobuf';

// SerializedDocument is one document's bytes and hash; the gzip form is made on first use.
export class SerializedDocument {
  private gzipped: Buffer | null = null;
  readonly hash: string;

  constructor(readonly body: Buffer) {
    this.hash = documentHash(body);
  }

  gzip(): Buffer {
    this.gzipped ??= gzipSync(this.body);
    return this.gzipped;
  }
}

// documentHash is kube-openapi's ETag: the SHA-512 of the JSON, in upper-case hex.
export function documentHash(body: Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

interface Snapshot {
  definitions: ResourceDefinition[];
  published: PublishedDefinitions;
  v3: Map<string, SerializedDocument> | null;
  v3Root: SerializedDocument | null;
  v2: SerializedDocument | null;
  v2Protobuf: SerializedDocument | null;
}

export class OpenApiDocuments {
  private snapshot: Snapshot | null = null;
  // generation counts rebuilds, for tests and metrics.
  generation = 0;

  constructor(
    private readonly catalog: CatalogView,
    private readonly info: OpenApiInfo = defaultInfo,
    // aliases publishes the *.k8s.io aliases too (--k8s-aliases).
    private readonly aliases = false,
  ) {}

  invalidate(): void {
    this.snapshot = null;
  }

  // v3Root is the /openapi/v3 discovery document.
  v3Root(): SerializedDocument {
    const snap = this.current();
    if (!snap.v3Root) {
      const hashes = new Map([...this.v3All().entries()].map(([path, doc]) => [path, doc.hash]));
      snap.v3Root = new SerializedDocument(json(openApiV3Discovery(hashes)));
    }
    return snap.v3Root;
  }

  // v3 is the document of one group version path (api/v1, apis/batch/v1), or undefined.
  v3(path: string): SerializedDocument | undefined {
    return this.v3All().get(path);
  }

  v3Paths(): string[] {
    return [...this.v3All().keys()];
  }

  v2(): SerializedDocument {
    const snap = this.current();
    snap.v2 ??= new SerializedDocument(json(swaggerDocument(snap.published, this.info)));
    return snap.v2;
  }

  // v2Protobuf carries the hash of the JSON form, as kube-openapi's ETag does.
  v2Protobuf(): { body: Buffer; hash: string; gzip(): Buffer } {
    const snap = this.current();
    const v2 = this.v2();
    snap.v2Protobuf ??= new SerializedDocument(encodeSwaggerProtobuf(JSON.parse(v2.body.toString('utf8'))));
    const proto = snap.v2Protobuf;
    return { body: proto.body, hash: v2.hash, gzip: () => proto.gzip() };
  }

  private v3All(): Map<string, SerializedDocument> {
    const snap = this.current();
    if (!snap.v3) {
      snap.v3 = new Map();
      for (const [path, defs] of groupVersionDefinitions({ all: () => [...snap.published.served, ...snap.published.aliases] })) {
        snap.v3.set(path, new SerializedDocument(json(openApiV3Document(defs, this.info))));
      }
    }
    return snap.v3;
  }

  private current(): Snapshot {
    const definitions = this.catalog.all();
    const snap = this.snapshot;
    if (snap && snap.definitions.length === definitions.length && snap.definitions.every((def, i) => def === definitions[i])) return snap;
    this.generation++;
    const published = { served: [...definitions], aliases: this.aliases ? aliasDefinitions(definitions) : [] };
    this.snapshot = { definitions: [...definitions], published, v3: null, v3Root: null, v2: null, v2Protobuf: null };
    return this.snapshot;
  }
}

function json(doc: unknown): Buffer {
  return Buffer.from(JSON.stringify(doc));
}
