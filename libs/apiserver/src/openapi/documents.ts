// Building the published documents: one OpenAPI 3.0 document per group version
// (/openapi/v3/apis/<group>/<version>) and one Swagger 2.0 document of everything
// (/openapi/v2), after kube-openapi's builder3 and builder. Both are pure functions of the
// served definitions.
import { s, Schema, listMetaSchema } from '@plinth/api';
import type { ResourceDefinition } from '@plinth/registry';
import { DefinitionWriter, gvkExtension } from './definitions';
import { GroupVersionKind, groupVersionPath, kindDefinitionName, listDefinitionName } from './names';
import { Operation, Parameter, PathItem, resourcePaths, responseDescriptions } from './operations';
import { alwaysPublished, alwaysPublishedScalars, JsonObject, names } from './shared-definitions';

export interface OpenApiInfo {
  title: string;
  version: string;
}

export const defaultInfo: OpenApiInfo = { title: 'Kubernetes', version: 'v1.28.0' };

// CatalogView is the part of the ResourceCatalog the documents are built from.
export interface CatalogView {
  all(): ResourceDefinition[];
}

// PublishedDefinitions are what the documents publish: the served definitions, and the
// definitions of the *.k8s.io aliases (empty with --k8s-aliases=false).
export interface PublishedDefinitions {
  served: ResourceDefinition[];
  aliases: ResourceDefinition[];
}

const bearerToken = { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' };

// publishKinds defines every kind and list kind of the definitions, with their GVK extensions,
// and the shared definitions the operations refer to.
function publishKinds(writer: DefinitionWriter, defs: ResourceDefinition[], groupVersions: { group: string; version: string }[]): void {
  for (const schema of alwaysPublished) writer.convert(schema);
  for (const scalar of alwaysPublishedScalars) writer.defineScalar(scalar);
  for (const def of defs) {
    const kindName = kindDefinitionName(def);
    writer.define(kindName, def.schema);
    writer.addGroupVersionKinds(kindName, [{ group: def.group, version: def.version, kind: def.kind }]);
    if (!(def.verbs as string[]).includes('list')) continue;
    const listName = listDefinitionName(def);
    writer.define(listName, listSchema(def, kindName));
    writer.addGroupVersionKinds(listName, [{ group: def.group, version: def.version, kind: def.listKind }]);
  }
  const gvks = (kind: string): GroupVersionKind[] => [{ group: '', version: 'v1', kind }, ...groupVersions.map((gv) => ({ ...gv, kind }))];
  writer.addGroupVersionKinds(names.status, [{ group: '', version: 'v1', kind: 'Status' }]);
  writer.addGroupVersionKinds(names.deleteOptions, gvks('DeleteOptions'));
  writer.addGroupVersionKinds(names.watchEvent, gvks('WatchEvent'));
}

function listSchema(def: ResourceDefinition, kindName: string): Schema {
  return s.object(
    {
      apiVersion: s.string('APIVersion defines the versioned schema of this representation of an object.'),
      items: s.array({ ...def.schema, ref: kindName }, { description: `items is the list of ${def.kind} objects.` }),
      kind: s.string('Kind is a string value representing the REST resource this object represents.'),
      metadata: listMetaSchema,
    },
    { required: ['items'], description: `${def.listKind} is a list of ${def.kind} objects.` },
  );
}

function sortedPaths(defs: ResourceDefinition[]): PathItem[] {
  return defs.flatMap(resourcePaths).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function uniqueGroupVersions(defs: ResourceDefinition[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const def of defs) seen.set(`${def.group}/${def.version}`, { group: def.group, version: def.version });
  return [...seen.values()].filter((gv) => gv.group !== '' || gv.version !== 'v1');
}

// ---- OpenAPI 3.0 ----

function v3Parameter(param: Parameter): JsonObject {
  return {
    name: param.name,
    in: param.in,
    description: param.description,
    ...(param.required ? { required: true } : {}),
    schema: { type: param.type, uniqueItems: true },
  };
}

function v3Operation(writer: DefinitionWriter, op: Operation): JsonObject {
  const content = (definition: string, mediaTypes: string[]) => Object.fromEntries(mediaTypes.map((mt) => [mt, { schema: writer.reference(definition) }]));
  const out: JsonObject = { tags: [op.tag], description: op.description, operationId: op.operationId };
  if (op.parameters.length) out['parameters'] = op.parameters.map(v3Parameter);
  if (op.body) out['requestBody'] = { content: content(op.body.definition, op.body.mediaTypes), ...(op.body.required ? { required: true } : {}) };
  out['responses'] = Object.fromEntries(
    op.responses.map((r) => [r.code, { description: responseDescriptions[r.code], ...(r.definition ? { content: content(r.definition, op.produces) } : {}) }]),
  );
  out['x-kubernetes-action'] = op.action;
  out[gvkExtension] = { ...op.gvk };
  return out;
}

// openApiV3Document is the document of one group version, the shape kube-apiserver serves at
// /openapi/v3/apis/<group>/<version>.
export function openApiV3Document(defs: ResourceDefinition[], info: OpenApiInfo = defaultInfo): JsonObject {
  const writer = new DefinitionWriter('v3');
  publishKinds(writer, defs, uniqueGroupVersions(defs));
  const paths: JsonObject = {};
  for (const item of sortedPaths(defs)) {
    const entry: JsonObject = {};
    for (const op of item.operations) entry[op.method] = v3Operation(writer, op);
    entry['parameters'] = item.parameters.map(v3Parameter);
    paths[item.path] = entry;
  }
  return {
    openapi: '3.0.0',
    info: { ...info },
    paths,
    components: { schemas: writer.sorted(), securitySchemes: { BearerToken: bearerToken } },
    security: [{ BearerToken: [] }],
  };
}

// groupVersionDefinitions groups the definitions by group version, keyed by the /openapi/v3
// discovery path (api/v1, apis/<group>/<version>).
export function groupVersionDefinitions(catalog: CatalogView): Map<string, ResourceDefinition[]> {
  const byPath = new Map<string, ResourceDefinition[]>();
  for (const def of catalog.all()) {
    const key = groupVersionPath(def.group, def.version);
    byPath.set(key, [...(byPath.get(key) ?? []), def]);
  }
  for (const defs of byPath.values()) defs.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  return new Map([...byPath.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// openApiV3Discovery is the /openapi/v3 root: where each group version's document is, with the
// hash that makes its URL cacheable for good.
export function openApiV3Discovery(hashes: Map<string, string>): JsonObject {
  const paths: JsonObject = {};
  for (const [path, hash] of hashes) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  return { paths };
}

// ---- Swagger 2.0 ----

function v2Parameter(param: Parameter): JsonObject {
  return {
    uniqueItems: true,
    type: param.type,
    description: param.description,
    name: param.name,
    in: param.in,
    ...(param.required ? { required: true } : {}),
  };
}

// v2Consumes lists a body's media types as kube-apiserver's OpenAPI v2 does: server-side apply's
// last (v3 sorts them by name, as they are held).
function v2Consumes(mediaTypes: readonly string[]): string[] {
  const apply = 'application/apply-patch+yaml';
  return [...mediaTypes.filter((type) => type !== apply), ...mediaTypes.filter((type) => type === apply)];
}

function v2Operation(writer: DefinitionWriter, op: Operation): JsonObject {
  const out: JsonObject = { description: op.description };
  if (op.body) out['consumes'] = v2Consumes(op.body.mediaTypes);
  out['produces'] = [...op.produces];
  out['schemes'] = ['https'];
  out['tags'] = [op.tag];
  out['operationId'] = op.operationId;
  const params: JsonObject[] = [];
  if (op.body) params.push({ name: 'body', in: 'body', ...(op.body.required ? { required: true } : {}), schema: writer.reference(op.body.definition) });
  params.push(...op.parameters.map(v2Parameter));
  if (params.length) out['parameters'] = params;
  out['responses'] = Object.fromEntries(op.responses.map((r) => [r.code, { description: responseDescriptions[r.code], ...(r.definition ? { schema: writer.reference(r.definition) } : {}) }]));
  out['x-kubernetes-action'] = op.action;
  out[gvkExtension] = { ...op.gvk };
  return out;
}

// swaggerDocument is the Swagger 2.0 document of every served definition (/openapi/v2). An
// alias adds its group version kinds to the definitions it shares with its platform group, not
// paths: their operations would repeat the platform group's operation ids, which Swagger 2.0
// requires to be unique (the alias's paths are in its own /openapi/v3 document).
export function swaggerDocument(published: PublishedDefinitions, info: OpenApiInfo = defaultInfo): JsonObject {
  const defs = [...groupVersionDefinitions({ all: () => published.served }).values()].flat();
  const kinds = [...defs, ...published.aliases];
  const writer = new DefinitionWriter('v2');
  publishKinds(writer, kinds, uniqueGroupVersions(kinds));
  const paths: JsonObject = {};
  for (const item of sortedPaths(defs)) {
    const entry: JsonObject = {};
    for (const op of item.operations) entry[op.method] = v2Operation(writer, op);
    entry['parameters'] = item.parameters.map(v2Parameter);
    paths[item.path] = entry;
  }
  return {
    swagger: '2.0',
    info: { ...info },
    paths,
    definitions: writer.sorted(),
    securityDefinitions: { BearerToken: bearerToken },
    security: [{ BearerToken: [] }],
  };
}
