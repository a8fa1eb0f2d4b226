import { discoveryRepresentation } from './discovery';

const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('discoveryRepresentation', () => {
  it('picks the aggregated document where it is served, the legacy one elsewhere', () => {
    expect(discoveryRepresentation(`${aggregated},application/json`, true)).toEqual({ aggregated: { group: 'apidiscovery.k8s.io', version: 'v2beta1' }, yaml: false });
    expect(discoveryRepresentation(`${aggregated},application/json`, false)).toEqual({ yaml: false });
    expect(discoveryRepresentation(aggregated, false)).toBeNull();
  });

  it('skips a version or transformation not served, and follows quality', () => {
    expect(discoveryRepresentation('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', true)).toEqual({ yaml: false });
    expect(discoveryRepresentation('application/json;as=APIGroupDiscoveryList', true)).toBeNull();
    expect(discoveryRepresentation(`application/yaml,${aggregated}`, true)).toEqual({ yaml: true });
    expect(discoveryRepresentation(`application/yaml;q=0.5,${aggregated}`, true)?.aggregated?.version).toBe('v2beta1');
  });

  it('answers JSON to no Accept or a wildcard, and nothing to protobuf or text alone', () => {
    expect(discoveryRepresentation(undefined, true)).toEqual({ yaml: false });
    expect(discoveryRepresentation('*/*', false)).toEqual({ yaml: false });
    expect(discoveryRepresentation('application/vnd.kubernetes.protobuf', false)).toBeNull();
    expect(discoveryRepresentation('text/plain', false)).toBeNull();
  });
});
