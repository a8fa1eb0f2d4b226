// Content negotiation: which representation an Accept header asks for, after
// k8s.io/apiserver/pkg/endpoints/handlers/negotiation. Clauses are tried by quality, then in
// order; a clause asking for something not served is skipped, and nothing served is 406.

export type Representation =
  | { type: 'json'; mediaType: 'application/json' }
  | { type: 'yaml'; mediaType: 'application/yaml' }
  | { type: 'table'; mediaType: 'application/json'; group: string; version: string }
  // partial is metadata only (as=PartialObjectMetadata or PartialObjectMetadataList), what
  // metadata informers ask for; `list` says which of the two the client named.
  | { type: 'partial'; mediaType: 'application/json'; group: string; version: string; list: boolean }
  | { type: 'protobuf'; mediaType: string };

export interface AcceptClause {
  type: string;
  subtype: string;
  params: Record<string, string>;
  quality: number;
}

export const protobufMediaTypes = ['application/vnd.platform.protobuf', 'application/vnd.kubernetes.protobuf'];
const metaGroups = new Set(['meta.platform.io', 'meta.k8s.io']);
// metaVersions are the versions of meta's Table and PartialObjectMetadata served.
const metaVersions = new Set(['v1', 'v1beta1']);
const transformedKinds = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

export function parseAccept(header: string | undefined): AcceptClause[] {
  if (!header || header.trim() === '') return [{ type: '*', subtype: '*', params: {}, quality: 1 }];
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const [range, ...paramParts] = raw.split(';').map((p) => p.trim());
    if (!range) continue;
    const [type, subtype = ''] = range.toLowerCase().split('/');
    const params: Record<string, string> = {};
    let quality = 1;
    for (const part of paramParts) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const key = part.slice(0, eq).trim().toLowerCase();
      const value = part.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (key === 'q') quality = Number.parseFloat(value);
      else params[key] = value;
    }
    if (!Number.isNaN(quality) && quality > 0) clauses.push({ type, subtype, params, quality });
  }
  return clauses
    .map((clause, index) => ({ clause, index }))
    .sort((a, b) => b.clause.quality - a.clause.quality || a.index - b.index)
    .map((entry) => entry.clause);
}

export interface NegotiationOptions {
  // tableAllowed: the request can answer a Table (get and list of resources, and watch).
  tableAllowed: boolean;
  // yamlAllowed: false for watch streams.
  yamlAllowed: boolean;
  protobufAllowed: boolean;
}

// negotiate returns the representation to answer with, or null for 406.
export function negotiate(header: string | undefined, options: NegotiationOptions): Representation | null {
  for (const clause of parseAccept(header)) {
    const chosen = choose(clause, options);
    if (chosen) return chosen;
  }
  return null;
}

function choose(clause: AcceptClause, options: NegotiationOptions): Representation | null {
  const { type, subtype, params } = clause;
  const as = params['as'];
  if (as !== undefined) {
    if (!transformedKinds.has(as) || !options.tableAllowed) return null;
    if (type !== 'application' || subtype !== 'json') return null;
    const group = params['g'] ?? '';
    const version = params['v'] ?? '';
    if (!metaGroups.has(group) || !metaVersions.has(version)) return null;
    if (as === 'Table') return { type: 'table', mediaType: 'application/json', group, version };
    return { type: 'partial', mediaType: 'application/json', group, version, list: as === 'PartialObjectMetadataList' };
  }
  if ((type === '*' && subtype === '*') || (type === 'application' && (subtype === '*' || subtype === 'json'))) {
    return { type: 'json', mediaType: 'application/json' };
  }
  if (type === 'application' && subtype === 'yaml' && options.yamlAllowed) return { type: 'yaml', mediaType: 'application/yaml' };
  if (options.protobufAllowed && protobufMediaTypes.includes(`${type}/${subtype}`)) {
    return { type: 'protobuf', mediaType: `${type}/${subtype}` };
  }
  return null;
}

// routeProduces is what kube-apiserver's routes for a built-in resource declare they produce:
// the GET routes (get, list, watch) also the watch streams.
export function routeProduces(method: string): string[] {
  const objects = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
  return method === 'GET' ? [...objects, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'] : objects;
}

// routeAccepts is go-restful's matchesAccept, which runs before any handler: some clause's media
// type (its parameters dropped) is */* or one the route produces, exactly (no `application/*`).
export function routeAccepts(header: string | undefined, produces: readonly string[]): boolean {
  if (!header) return true;
  return header.split(',').some((clause) => {
    const mediaType = clause.split(';')[0].trim();
    return mediaType === '*/*' || produces.includes(mediaType);
  });
}

// acceptedMediaTypes are what a 406 names: protobuf only for kinds with a protobuf message.
export function acceptedMediaTypes(protobuf: boolean): string[] {
  return ['application/json', 'application/yaml', ...(protobuf ? ['application/vnd.kubernetes.protobuf'] : [])];
}

// acceptsProtobuf is a cheap test that spares JSON requests the protobuf codec lookup.
export function acceptsProtobuf(header: string | undefined): boolean {
  return header !== undefined && header.includes('protobuf');
}

// errorPrefersProtobuf: an error answered before a resource's negotiation is protobuf when the
// Accept header prefers it.
export function errorPrefersProtobuf(header: string | undefined): boolean {
  return acceptsProtobuf(header) && negotiate(header, { tableAllowed: false, yamlAllowed: true, protobufAllowed: true })?.type === 'protobuf';
}
