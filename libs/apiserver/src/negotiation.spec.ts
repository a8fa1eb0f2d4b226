import { errorPrefersProtobuf, negotiate } from './negotiation';

const resource = { tableAllowed: true, yamlAllowed: true, protobufAllowed: true };
// A custom resource: no protobuf message.
const custom = { ...resource, protobufAllowed: false };

describe('negotiate protobuf', () => {
  it('chooses protobuf for the kinds that have a message, in either media type spelling', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf, application/json', resource)).toEqual({ type: 'protobuf', mediaType: 'application/vnd.kubernetes.protobuf' });
    expect(negotiate('application/vnd.platform.protobuf', resource)?.type).toBe('protobuf');
    expect(negotiate('application/vnd.kubernetes.protobuf;stream=watch', { ...resource, yamlAllowed: false })?.type).toBe('protobuf');
  });

  it('skips protobuf for custom resources: 406 alone, JSON as the fallback', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf', custom)).toBeNull();
    expect(negotiate('application/vnd.kubernetes.protobuf,application/json', custom)?.type).toBe('json');
  });

  it('has no Table in protobuf', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1', resource)).toBeNull();
  });

  it('serves Table in v1 and v1beta1 of either meta group, and no other version', () => {
    expect(negotiate('application/json;as=Table;g=meta.k8s.io;v=v1beta1', resource)).toEqual({ type: 'table', mediaType: 'application/json', group: 'meta.k8s.io', version: 'v1beta1' });
    expect(negotiate('application/json;as=Table;g=meta.platform.io;v=v1', resource)).toEqual({ type: 'table', mediaType: 'application/json', group: 'meta.platform.io', version: 'v1' });
    expect(negotiate('application/json;as=Table;g=meta.k8s.io;v=v9', resource)).toBeNull();
  });

  it('answers early errors in protobuf only when preferred', () => {
    expect(errorPrefersProtobuf('application/vnd.kubernetes.protobuf,application/json')).toBe(true);
    expect(errorPrefersProtobuf('application/json,application/vnd.kubernetes.protobuf')).toBe(false);
    expect(errorPrefersProtobuf(undefined)).toBe(false);
  });
});

describe('metadata-only clients', () => {
  const options = { tableAllowed: true, yamlAllowed: true, protobufAllowed: false };

  it('negotiates PartialObjectMetadata and PartialObjectMetadataList in meta v1 and v1beta1', () => {
    expect(negotiate('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', options)).toEqual({ type: 'partial', mediaType: 'application/json', group: 'meta.k8s.io', version: 'v1', list: false });
    expect(negotiate('application/json;as=PartialObjectMetadataList;g=meta.platform.io;v=v1beta1', options)).toEqual({ type: 'partial', mediaType: 'application/json', group: 'meta.platform.io', version: 'v1beta1', list: true });
  });

  it('skips them where no object is read (reviews), and falls back to the next clause', () => {
    expect(negotiate('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', { ...options, tableAllowed: false })).toBeNull();
    expect(negotiate('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2, application/json', options)).toEqual({ type: 'json', mediaType: 'application/json' });
  });
});
