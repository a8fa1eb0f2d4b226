import { kindSchema, s, Schema } from '@plinth/api';
import { isStatusError, StatusError } from '@plinth/machinery';
import {
  applyFieldValidation,
  BodyDecodeError,
  decodeErrorStatus,
  FieldValidation,
  parseFieldValidation,
  StrictDecodingError,
} from './field-validation';

const str: Schema = { type: 'string' };
const stringMap: Schema = { type: 'object', additionalProperties: str };
const obj = (properties: Record<string, Schema>, extra: Partial<Schema> = {}): Schema => ({ type: 'object', properties, ...extra });
const objectMeta = obj({ name: str, namespace: str, resourceVersion: str, labels: stringMap, annotations: stringMap });
const deployment = obj({
  apiVersion: str,
  kind: str,
  metadata: objectMeta,
  spec: obj({
    replicas: { type: 'integer' },
    paused: { type: 'boolean' },
    selector: obj({ matchLabels: stringMap }),
    template: obj({
      metadata: objectMeta,
      spec: obj({ containers: { type: 'array', items: obj({ name: str, image: str, imagePullPolicy: str }) } }),
    }),
  }),
});
const deploymentKind = { group: 'apps', version: 'v1', kind: 'Deployment' };

// invalidBodyJSON of test/integration/apiserver/field_validation_test.go (Kubernetes 1.28).
const invalidBodyJSON = `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "test-deployment",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;

const expectedStrictErrors = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const cleanObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'test-deployment', labels: { app: 'nginx' } },
  spec: {
    paused: false,
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Never' }] },
    },
  },
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('applyFieldValidation (TestFieldValidation, POST with invalidBodyJSON)', () => {
  it('Warn answers one warning per strict error, in document order, and drops unknown fields', () => {
    const { object, warnings } = applyFieldValidation(invalidBodyJSON, deployment, FieldValidation.Warn);
    expect(warnings).toEqual(expectedStrictErrors);
    expect(object).toEqual(cleanObject);
  });

  it('Strict refuses with every strict error in one message', () => {
    const err = thrown(() => applyFieldValidation(invalidBodyJSON, deployment, FieldValidation.Strict));
    expect(err).toBeInstanceOf(StrictDecodingError);
    expect((err as StrictDecodingError).message).toBe(
      'strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", ' +
        'unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", ' +
        'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    );
    expect((err as StrictDecodingError).errors).toEqual(expectedStrictErrors);
  });

  it('Ignore drops unknown fields silently and keeps the last duplicate', () => {
    expect(applyFieldValidation(Buffer.from(invalidBodyJSON), deployment, FieldValidation.Ignore)).toEqual({ object: cleanObject, warnings: [] });
  });

  it('passes a clean body through under every directive', () => {
    const body = JSON.stringify(cleanObject);
    for (const mode of Object.values(FieldValidation)) {
      expect(applyFieldValidation(body, deployment, mode)).toEqual({ object: cleanObject, warnings: [] });
    }
  });
});

describe('applyFieldValidation with the registry schemas', () => {
  const configMap = kindSchema({ data: s.stringMap(), binaryData: s.map(s.bytes()), immutable: s.bool() }, 'ConfigMap holds configuration data.');

  it('checks ObjectMeta, keeps managedFields.fieldsV1 opaque and map keys free', () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cm',
        labels: { 'app.kubernetes.io/name': 'x' },
        managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } }, extra: 1 }],
        bogus: true,
      },
      data: { a: '1', 'b.c': '2' },
      stringData: { c: '3' },
    });
    const { object, warnings } = applyFieldValidation(body, configMap, 'Warn');
    expect(warnings).toEqual(['unknown field "metadata.managedFields[0].extra"', 'unknown field "metadata.bogus"', 'unknown field "stringData"']);
    expect(object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cm',
        labels: { 'app.kubernetes.io/name': 'x' },
        managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } }],
      },
      data: { a: '1', 'b.c': '2' },
    });
  });
});

describe('applyFieldValidation ordering and limits', () => {
  it('places a duplicate where the repeated key is, among unknown fields', () => {
    const body = '{"spec": {"paused": true, "unknownA": 1, "paused": false, "unknownB": 2}}';
    expect(applyFieldValidation(body, deployment, 'Warn').warnings).toEqual([
      'unknown field "spec.unknownA"',
      'duplicate field "spec.paused"',
      'unknown field "spec.unknownB"',
    ]);
  });

  it('orders integer-like unknown keys by their place in the body', () => {
    const body = '{"spec": {"zeta": 1, "10": 2, "replicas": 1, "replicas": 2}}';
    expect(applyFieldValidation(body, deployment, 'Warn').warnings).toEqual([
      'unknown field "spec.zeta"',
      'unknown field "spec.10"',
      'duplicate field "spec.replicas"',
    ]);
  });

  it('reports nothing below an unknown field, nor its duplicates', () => {
    const body = '{"spec": {"extra": {"a": 1, "a": 2}, "extra": {}}, "metadata": {"labels": {"app": "a", "app": "b"}}}';
    expect(applyFieldValidation(body, deployment, 'Warn').warnings).toEqual(['unknown field "spec.extra"', 'duplicate field "metadata.labels.app"']);
  });

  it('reports each message once', () => {
    const body = '{"metadata": {"name": "a", "name": "b", "name": "c"}}';
    expect(applyFieldValidation(body, deployment, 'Warn').warnings).toEqual(['duplicate field "metadata.name"']);
  });

  it('keeps at most 100 strict errors', () => {
    const fields = Array.from({ length: 150 }, (_, i) => `"u${i}": ${i}`).join(', ');
    const { warnings } = applyFieldValidation(`{"spec": {${fields}}}`, deployment, 'Warn');
    expect(warnings).toHaveLength(100);
    expect(warnings[99]).toBe('unknown field "spec.u99"');
  });

  it('puts the errors found in the YAML before those of its JSON', () => {
    const yamlError = 'yaml: unmarshal errors:\n  line 5: key "replicas" already set in map';
    const { warnings } = applyFieldValidation('{"spec": {"replicas": 2, "nope": 1}}', deployment, 'Warn', undefined, [yamlError]);
    // each repeated key is a Warning of its own (a header holds no line break), as kube-apiserver warns them
    expect(warnings).toEqual(['line 5: key "replicas" already set in map', 'unknown field "spec.nope"']);
  });
});

describe('applyFieldValidation bodies that cannot be decoded', () => {
  it('wraps a syntax error as the JSON serializer does', () => {
    const err = thrown(() => applyFieldValidation('{"kind": "Deployment",}', deployment, 'Strict'));
    expect(err).toBeInstanceOf(BodyDecodeError);
    expect((err as Error).message).toBe("couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string");
    expect((thrown(() => applyFieldValidation('', deployment, 'Ignore')) as Error).message).toBe(
      "couldn't get version/kind; json parse error: unexpected end of JSON input",
    );
  });

  it('refuses a body that is not an object, or names its kind with another type', () => {
    expect((thrown(() => applyFieldValidation('[1]', deployment, 'Warn')) as Error).message).toBe(
      'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
    expect((thrown(() => applyFieldValidation('{"apiVersion": 1}', deployment, 'Warn')) as Error).message).toBe(
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    );
    expect((thrown(() => applyFieldValidation('{"kind": true, "apiVersion": 1}', deployment, 'Warn')) as Error).message).toBe(
      "couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .kind of type string",
    );
  });

  it('reads null as an empty object', () => {
    expect(applyFieldValidation('null', deployment, 'Strict')).toEqual({ object: {}, warnings: [] });
  });
});

describe('decodeErrorStatus (transformDecodeError)', () => {
  function status(err: unknown, body: string | Buffer): StatusError {
    const result = decodeErrorStatus(err as StrictDecodingError, deploymentKind, body);
    expect(isStatusError(result)).toBe(true);
    expect(result.code).toBe(400);
    expect(result.reason).toBe('BadRequest');
    return result;
  }

  it('names the kind and version the body was read as for a strict error', () => {
    const err = thrown(() => applyFieldValidation(invalidBodyJSON, deployment, 'Strict'));
    expect(status(err, invalidBodyJSON).message).toBe(`Deployment in version "v1" cannot be handled as a Deployment: ${(err as Error).message}`);
    const bare = thrown(() => applyFieldValidation('{"spec": {"x": 1}}', deployment, 'Strict'));
    expect(status(bare, '').message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.x"');
  });

  it('summarizes an unreadable body: an object as text, anything else in hex', () => {
    const body = '{"apiVersion": "apps/v1", "kind": "Deployment" "metadata": {}}';
    const err = thrown(() => applyFieldValidation(body, deployment, 'Strict'));
    expect(status(err, body).message).toBe(
      "the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: " +
        'invalid character \'"\' after object key:value pair ({"apiVersion": "apps/v1", "kin ...)',
    );
    expect(status(thrown(() => applyFieldValidation('', deployment, 'Strict')), '').message).toBe(
      "the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    );
    expect(status(thrown(() => applyFieldValidation('xyz', deployment, 'Strict')), Buffer.from('xyz')).message).toBe(
      "the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (78797a)",
    );
  });
});

describe('parseFieldValidation', () => {
  it('defaults to Warn and accepts the three directives', () => {
    expect(parseFieldValidation(null)).toBe('Warn');
    expect(parseFieldValidation(undefined)).toBe('Warn');
    expect(parseFieldValidation('')).toBe('Warn');
    expect(parseFieldValidation('Ignore')).toBe('Ignore');
    expect(parseFieldValidation('Warn')).toBe('Warn');
    expect(parseFieldValidation('Strict')).toBe('Strict');
  });

  it('refuses anything else with 422 Invalid on the options kind', () => {
    const err = thrown(() => parseFieldValidation('strict', 'PatchOptions'));
    expect(isStatusError(err)).toBe(true);
    const statusErr = err as StatusError;
    expect(statusErr.code).toBe(422);
    expect(statusErr.reason).toBe('Invalid');
    expect(statusErr.message).toBe(
      'PatchOptions.meta.platform.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
    expect(statusErr.errStatus.details).toEqual({
      group: 'meta.platform.io',
      kind: 'PatchOptions',
      causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"', field: 'fieldValidation' }],
    });
    expect((thrown(() => parseFieldValidation('bogus')) as Error).message).toMatch(/^CreateOptions\.meta\.platform\.io "" is invalid: /);
  });
});
