import { KubeObject } from '@plinth/api';
import { crdStrategy } from './customresourcedefinitions';
import { validateCrd, validateCrdUpdate } from './crd-validation';
import { CrdObject } from './crd-types';

const base = (): CrdObject =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
    status: { storedVersions: ['v1'] },
  }) as CrdObject;

const ctx = { featureGates: new Map<string, boolean>(), now: 0 };

// Messages are those of apiextensions-apiserver's validation.go.
describe('CustomResourceDefinition validation', () => {
  const cases: { name: string; change: (crd: CrdObject) => void; want: string[] }[] = [
    { name: 'a valid CRD', change: () => undefined, want: [] },
    { name: 'name', change: (c) => (c.metadata.name = 'bars.example.com'), want: ['metadata.name: Invalid value: "bars.example.com": must be spec.names.plural+"."+spec.group'] },
    { name: 'group required', change: (c) => ((c.spec.group = ''), (c.metadata.name = 'foos.')), want: ['spec.group: Required value'] },
    { name: 'scope required', change: (c) => (c.spec.scope = '' as never), want: ['spec.scope: Required value'] },
    {
      name: 'version name',
      change: (c) => (c.spec.versions[0].name = 'V1'),
      want: [
        "spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version V1',
        'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
      ],
    },
    {
      name: 'no storage version, printed as the internal versions with their schemas moved up to the spec',
      change: (c) => ((c.spec.versions[0].storage = false), delete c.status?.storedVersions),
      want: [
        'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}}: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
      ],
    },
    {
      name: 'two storage versions whose schemas and columns differ',
      change: (c) =>
        c.spec.versions.push({
          name: 'v2',
          served: false,
          storage: true,
          deprecationWarning: 'old',
          schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string' } } } },
          additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a' }],
        }),
      want: [
        'spec.versions[1].deprecationWarning: Invalid value: "old": can only be set for deprecated versions',
        'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:true, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(0xc000000000), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}, apiextensions.CustomResourceDefinitionVersion{Name:"v2", Served:false, Storage:true, Deprecated:false, DeprecationWarning:(*string)(0xc000000000), Schema:(*apiextensions.CustomResourceValidation)(0xc000000000), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition{apiextensions.CustomResourceColumnDefinition{Name:"A", Type:"string", Format:"", Description:"", Priority:0, JSONPath:".a"}}}}: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v2',
      ],
    },
    {
      name: 'deprecation warnings',
      change: (c) => {
        c.spec.versions[0].deprecated = true;
        c.spec.versions[0].deprecationWarning = `${'x'.repeat(256)}\u0007`;
      },
      want: ['spec.versions[0].deprecationWarning: Invalid value: "' + 'x'.repeat(256) + '\\a": must be <= 256 characters long', 'spec.versions[0].deprecationWarning: Invalid value: "' + 'x'.repeat(256) + '\\a": must only contain printable UTF-8 characters'],
    },
    {
      name: 'kind and listKind',
      change: (c) => (c.spec.names.listKind = 'Foo'),
      want: ['spec.names.listKind: Invalid value: "Foo": kind and listKind may not be the same'],
    },
    {
      name: 'printer columns every version shares, reported at the spec after the names',
      change: (c) => {
        c.spec.names.listKind = 'Foo';
        c.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'text', jsonPath: '.x' }];
      },
      want: ['spec.names.listKind: Invalid value: "Foo": kind and listKind may not be the same', 'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string'],
    },
    {
      name: 'schemas that differ between versions, reported per version',
      change: (c) => {
        c.spec.versions[0].schema = { openAPIV3Schema: { type: 'object', properties: { a: {} } } };
        c.spec.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { b: {} } } } });
      },
      want: [
        'spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields',
        'spec.versions[1].schema.openAPIV3Schema.properties[b].type: Required value: must not be empty for specified object fields',
      ],
    },
    {
      name: 'printer columns',
      change: (c) => (c.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'text', format: 'weird', jsonPath: 'spec.x' }]),
      want: [
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].format: Invalid value: "weird": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      ],
    },
    {
      name: 'scale paths',
      change: (c) => (c.spec.versions[0].subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '' } }),
      want: [
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.subresources.scale.statusReplicasPath: Required value',
      ],
    },
    {
      name: 'webhook conversion',
      change: (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v2'] } }),
      want: [
        'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
        'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      ],
    },
    { name: 'conversion strategy', change: (c) => (c.spec.conversion = { strategy: 'Magic' }), want: ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'] },
  ];

  it.each(cases)('$name', ({ change, want }) => {
    const crd = base();
    change(crd);
    expect(validateCrd(crd).map(String)).toEqual(want);
  });

  it('fixes group and plural, and scope and kind once established', () => {
    const old = base();
    old.status = { ...old.status, conditions: [{ type: 'Established', status: 'True' }] };
    const changed = base();
    changed.spec.scope = 'Cluster';
    changed.spec.names.kind = 'Bar';
    changed.spec.group = 'other.com';
    expect(validateCrdUpdate(changed, old).map(String)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Bar": field is immutable',
      'spec.group: Invalid value: "other.com": field is immutable',
    ]);
  });

  it('defaults names and conversion, and starts status with the storage version', () => {
    const crd = base() as KubeObject & CrdObject;
    delete crd.spec.names.singular;
    delete crd.spec.names.listKind;
    crdStrategy.defaults?.(crd, ctx);
    crdStrategy.prepareForCreate?.(crd, ctx);
    expect(crd.spec.names).toMatchObject({ singular: 'foo', listKind: 'FooList' });
    expect(crd.spec.conversion).toEqual({ strategy: 'None' });
    expect(crd.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
  });
});
