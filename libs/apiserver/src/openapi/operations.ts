// The operations a definition serves, as k8s.io/apiserver/pkg/endpoints/installer.go registers
// them: paths, actions, operation ids, parameters, bodies and responses, in a form both the
// OpenAPI 3 and the Swagger 2.0 writers render.
import type { ResourceDefinition } from '@plinth/registry';
import { GroupVersionKind, kindDefinitionName, listDefinitionName, operationGroupVersion, operationTag } from './names';
import { names } from './shared-definitions';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type Action = 'get' | 'list' | 'put' | 'patch' | 'post' | 'delete' | 'deletecollection' | 'watch' | 'watchlist';

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  type: 'string' | 'boolean' | 'integer';
  required?: boolean;
}

export interface RequestBody {
  definition: string;
  mediaTypes: string[];
  required: boolean;
}

export interface Response {
  code: '200' | '201' | '202' | '401';
  definition?: string;
}

export interface Operation {
  method: HttpMethod;
  action: Action;
  operationId: string;
  description: string;
  tag: string;
  parameters: Parameter[];
  body?: RequestBody;
  responses: Response[];
  produces: string[];
  gvk: GroupVersionKind;
}

export interface PathItem {
  path: string;
  parameters: Parameter[];
  operations: Operation[];
}

export const responseDescriptions: Record<Response['code'], string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

export const objectMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
export const streamMediaTypes = [...objectMediaTypes, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
export const patchMediaTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
const customResourcePatchMediaTypes = patchMediaTypes.filter((type) => type !== 'application/strategic-merge-patch+json');

const query = (name: string, type: Parameter['type'], description: string): Parameter => ({ name, in: 'query', type, description });

export const parameters = {
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."),
  dryRun: query('dryRun', 'string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: query('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).'),
  fieldValidation: query('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.'),
  force: query('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
  allowWatchBookmarks: query('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.'),
  continue: query('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue).'),
  fieldSelector: query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  labelSelector: query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: query('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.'),
  resourceVersion: query('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. Defaults to unset.'),
  resourceVersionMatch: query('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set.'),
  sendInitialEvents: query('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection.'),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  watch: query('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
  gracePeriodSeconds: query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used.'),
  orphanDependents: query('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned.'),
  propagationPolicy: query('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground."),
};

const p = parameters;
const listParameters = [p.allowWatchBookmarks, p.continue, p.fieldSelector, p.labelSelector, p.limit, p.resourceVersion, p.resourceVersionMatch, p.sendInitialEvents, p.timeoutSeconds, p.watch];
const writeParameters = [p.dryRun, p.fieldManager, p.fieldValidation];
const deleteParameters = [p.dryRun, p.gracePeriodSeconds, p.orphanDependents, p.propagationPolicy];
const deleteCollectionParameters = [p.continue, p.dryRun, p.fieldSelector, p.gracePeriodSeconds, p.labelSelector, p.limit, p.orphanDependents, p.propagationPolicy, p.resourceVersion, p.resourceVersionMatch, p.sendInitialEvents, p.timeoutSeconds];

function pathParameter(name: string, description: string): Parameter {
  return { name, in: 'path', type: 'string', description, required: true };
}

// OperationSpec is one installer.go route before the group version is known: its verb name
// ("read", "list", "deletecollection" → "deleteCollection"), path and shape.
interface OperationSpec {
  method: HttpMethod;
  action: Action;
  verb: string;
  // suffix follows the kind: Status, List, ForAllNamespaces, ListForAllNamespaces.
  suffix?: string;
  description: string;
  parameters: Parameter[];
  body?: RequestBody;
  responses: Response[];
  produces: string[];
}

// resourcePaths lists every path and operation a definition serves.
export function resourcePaths(def: ResourceDefinition): PathItem[] {
  const prefix = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  const kindName = kindDefinitionName(def);
  const listName = listDefinitionName(def);
  const has = (verb: string) => (def.verbs as string[]).includes(verb);
  const namespaced = def.namespaced ? 'Namespaced' : '';
  const scope = def.namespaced ? '/namespaces/{namespace}' : '';
  const name = pathParameter('name', `name of the ${def.kind}`);
  const namespace = pathParameter('namespace', 'object name and auth scope, such as for teams and projects');
  const scopeParameters = def.namespaced ? [namespace] : [];
  const deleted = def.deleteReturnsObject ? kindName : names.status;
  const ok = (definition: string, ...codes: Response['code'][]): Response[] => [...codes.map((code) => ({ code, definition })), { code: '401' }];
  const objectBody: RequestBody = { definition: kindName, mediaTypes: objectMediaTypes, required: true };
  // A custom resource takes no strategic merge patch (it has no Go types): kubectl reads these
  // media types to choose the patch of a client-side apply.
  const patchBody: RequestBody = { definition: names.patch, mediaTypes: def.unstructured ? customResourcePatchMediaTypes : patchMediaTypes, required: true };
  const deleteBody: RequestBody = { definition: names.deleteOptions, mediaTypes: objectMediaTypes, required: false };

  const items: PathItem[] = [];
  const add = (path: string, pathParameters: Parameter[], specs: OperationSpec[]) => {
    if (specs.length === 0) return;
    const operations = specs.map((spec) => ({
      method: spec.method,
      action: spec.action,
      operationId: `${spec.verb}${operationGroupVersion(def.group, def.version)}${spec.action === 'deletecollection' ? 'Collection' : ''}${spec.suffix === 'ForAllNamespaces' || spec.suffix === 'ListForAllNamespaces' ? '' : namespaced}${def.kind}${spec.suffix ?? ''}`,
      description: spec.description,
      tag: operationTag(def.group, def.version),
      parameters: spec.parameters,
      body: spec.body,
      responses: spec.responses,
      produces: spec.produces,
      gvk: { group: def.group, version: def.version, kind: def.kind },
    }));
    items.push({ path, parameters: [...pathParameters, p.pretty], operations });
  };

  const collection: OperationSpec[] = [];
  if (has('list')) collection.push({ method: 'get', action: 'list', verb: 'list', description: `list or watch objects of kind ${def.kind}`, parameters: listParameters, responses: ok(listName, '200'), produces: streamMediaTypes });
  if (has('create')) collection.push({ method: 'post', action: 'post', verb: 'create', description: `create ${article(def.kind)} ${def.kind}`, parameters: writeParameters, body: objectBody, responses: ok(kindName, '200', '201', '202'), produces: objectMediaTypes });
  if (has('deletecollection')) collection.push({ method: 'delete', action: 'deletecollection', verb: 'delete', description: `delete collection of ${def.kind}`, parameters: deleteCollectionParameters, body: deleteBody, responses: ok(names.status, '200'), produces: objectMediaTypes });
  add(`${prefix}${scope}/${def.resource}`, scopeParameters, collection);

  const object: OperationSpec[] = [];
  if (has('get')) object.push({ method: 'get', action: 'get', verb: 'read', description: `read the specified ${def.kind}`, parameters: [], responses: ok(kindName, '200'), produces: objectMediaTypes });
  if (has('update')) object.push({ method: 'put', action: 'put', verb: 'replace', description: `replace the specified ${def.kind}`, parameters: writeParameters, body: objectBody, responses: ok(kindName, '200', '201'), produces: objectMediaTypes });
  if (has('patch')) object.push({ method: 'patch', action: 'patch', verb: 'patch', description: `partially update the specified ${def.kind}`, parameters: [...writeParameters, p.force], body: patchBody, responses: ok(kindName, '200', '201'), produces: objectMediaTypes });
  if (has('delete')) object.push({ method: 'delete', action: 'delete', verb: 'delete', description: `delete ${article(def.kind)} ${def.kind}`, parameters: deleteParameters, body: deleteBody, responses: ok(deleted, '200', '202'), produces: objectMediaTypes });
  add(`${prefix}${scope}/${def.resource}/{name}`, [name, ...scopeParameters], object);

  const subresources = def.subresources ?? [];
  if (subresources.includes('status')) {
    add(`${prefix}${scope}/${def.resource}/{name}/status`, [name, ...scopeParameters], [
      { method: 'get', action: 'get', verb: 'read', suffix: 'Status', description: `read status of the specified ${def.kind}`, parameters: [], responses: ok(kindName, '200'), produces: objectMediaTypes },
      { method: 'put', action: 'put', verb: 'replace', suffix: 'Status', description: `replace status of the specified ${def.kind}`, parameters: writeParameters, body: objectBody, responses: ok(kindName, '200', '201'), produces: objectMediaTypes },
      { method: 'patch', action: 'patch', verb: 'patch', suffix: 'Status', description: `partially update status of the specified ${def.kind}`, parameters: [...writeParameters, p.force], body: patchBody, responses: ok(kindName, '200', '201'), produces: objectMediaTypes },
    ]);
  }
  // finalize is the namespace subresource that takes a whole Namespace (replaceCoreV1NamespaceFinalize).
  if (subresources.includes('finalize')) {
    add(`${prefix}${scope}/${def.resource}/{name}/finalize`, [name, ...scopeParameters], [
      { method: 'put', action: 'put', verb: 'replace', suffix: 'Finalize', description: `replace finalize of the specified ${def.kind}`, parameters: writeParameters, body: objectBody, responses: ok(kindName, '200', '201'), produces: objectMediaTypes },
    ]);
  }

  if (has('list') && def.namespaced) {
    add(`${prefix}/${def.resource}`, [], [
      { method: 'get', action: 'list', verb: 'list', suffix: 'ForAllNamespaces', description: `list or watch objects of kind ${def.kind}`, parameters: listParameters, responses: ok(listName, '200'), produces: streamMediaTypes },
    ]);
  }
  if (has('watch')) {
    const watchObject = `watch changes to an object of kind ${def.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`;
    const watchList = `watch individual changes to a list of ${def.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
    const event = ok(names.watchEvent, '200');
    add(`${prefix}/watch${scope}/${def.resource}`, scopeParameters, [
      { method: 'get', action: 'watchlist', verb: 'watch', suffix: 'List', description: watchList, parameters: listParameters, responses: event, produces: streamMediaTypes },
    ]);
    add(`${prefix}/watch${scope}/${def.resource}/{name}`, [name, ...scopeParameters], [
      { method: 'get', action: 'watch', verb: 'watch', description: watchObject, parameters: listParameters, responses: event, produces: streamMediaTypes },
    ]);
    if (def.namespaced) {
      add(`${prefix}/watch/${def.resource}`, [], [
        { method: 'get', action: 'watchlist', verb: 'watch', suffix: 'ListForAllNamespaces', description: watchList, parameters: listParameters, responses: event, produces: streamMediaTypes },
      ]);
    }
  }
  return items;
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}
