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

  it('answers early errors in protobuf only when preferred', () => {
    expect(errorPrefersProtobuf('application/vnd.kubernetes.protobuf,application/json')).toBe(true);
    expect(errorPrefersProtobuf('application/json,application/vnd.kubernetes.protobuf')).toBe(false);
    expect(errorPrefersProtobuf(undefined)).toBe(false);
  });
});
