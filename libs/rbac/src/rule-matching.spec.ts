// Tables after TestRuleMatches of plugin/pkg/auth/authorizer/rbac/rbac_test.go, with
// resourceNames, '*/subresource' and non-resource prefix cases added.
import { Attributes, newUserInfo, nonResourceAttributes, resourceAttributes } from './attributes';
import { newRule } from './rule-builder';
import { canonicalApiGroup, nonResourceURLMatches, resourceMatches, ruleAllows, rulesAllow } from './rule-matching';
import { PolicyRule } from './types';

const user = newUserInfo({ name: 'u' });

interface Req {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  url?: string;
}

function attrs(r: Req): Attributes {
  if (r.url !== undefined) return nonResourceAttributes({ user, verb: r.verb, path: r.url });
  return resourceAttributes({ user, verb: r.verb, apiGroup: r.group ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '' });
}

const cases: { name: string; rule: PolicyRule; expect: [Req, boolean][] }[] = [
  {
    name: 'star verb, exact match other',
    rule: newRule('*').groups('group1').resources('resource1').rule(),
    expect: [
      [{ verb: 'verb1', group: 'group1', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group2', resource: 'resource1' }, false],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2' }, false],
      [{ verb: 'verb2', group: 'group1', resource: 'resource1' }, true],
      [{ verb: 'verb2', group: 'group2', resource: 'resource2' }, false],
    ],
  },
  {
    name: 'star group, exact match other',
    rule: newRule('verb1').groups('*').resources('resource1').rule(),
    expect: [
      [{ verb: 'verb1', group: 'group1', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group2', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: '', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2' }, false],
      [{ verb: 'verb2', group: 'group1', resource: 'resource1' }, false],
    ],
  },
  {
    name: 'star resource, exact match other',
    rule: newRule('verb1').groups('group1').resources('*').rule(),
    expect: [
      [{ verb: 'verb1', group: 'group1', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2' }, true],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2', subresource: 'status' }, true],
      [{ verb: 'verb1', group: 'group2', resource: 'resource1' }, false],
      [{ verb: 'verb2', group: 'group1', resource: 'resource1' }, false],
    ],
  },
  {
    name: 'tuple expansion',
    rule: newRule('verb1', 'verb2').groups('group1', 'group2').resources('resource1', 'resource2').rule(),
    expect: [
      [{ verb: 'verb1', group: 'group1', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group2', resource: 'resource1' }, true],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2' }, true],
      [{ verb: 'verb2', group: 'group2', resource: 'resource2' }, true],
      [{ verb: 'verb3', group: 'group2', resource: 'resource2' }, false],
      [{ verb: 'verb1', group: 'group3', resource: 'resource2' }, false],
    ],
  },
  {
    name: 'subresource expansion',
    rule: newRule('*').groups('*').resources('resource1/subresource1').rule(),
    expect: [
      [{ verb: 'verb1', group: 'group1', resource: 'resource1', subresource: 'subresource1' }, true],
      [{ verb: 'verb1', group: 'group2', resource: 'resource1', subresource: 'subresource2' }, false],
      [{ verb: 'verb1', group: 'group1', resource: 'resource2', subresource: 'subresource1' }, false],
      [{ verb: 'verb2', group: 'group1', resource: 'resource1', subresource: 'subresource1' }, true],
      [{ verb: 'verb1', group: 'group1', resource: 'resource1' }, false],
    ],
  },
  {
    name: 'star subresource',
    rule: newRule('get').groups('*').resources('*/scale').rule(),
    expect: [
      [{ verb: 'get', group: 'apps', resource: 'deployments', subresource: 'scale' }, true],
      [{ verb: 'get', group: '', resource: 'replicationcontrollers', subresource: 'scale' }, true],
      [{ verb: 'get', group: 'apps', resource: 'deployments' }, false],
      [{ verb: 'get', group: 'apps', resource: 'deployments', subresource: 'status' }, false],
      [{ verb: 'get', group: 'apps', resource: 'deployments', subresource: 'xscale' }, false],
      [{ verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale' }, false],
    ],
  },
  {
    name: 'resource without subresource does not cover subresources',
    rule: newRule('*').groups('').resources('pods').rule(),
    expect: [
      [{ verb: 'get', resource: 'pods' }, true],
      [{ verb: 'get', resource: 'pods', subresource: 'status' }, false],
      [{ verb: 'create', resource: 'pods', subresource: 'exec' }, false],
    ],
  },
  {
    name: 'resource names',
    rule: newRule('get', 'update').groups('').resources('configmaps').names('one', 'two').rule(),
    expect: [
      [{ verb: 'get', resource: 'configmaps', name: 'one' }, true],
      [{ verb: 'update', resource: 'configmaps', name: 'two' }, true],
      [{ verb: 'get', resource: 'configmaps', name: 'three' }, false],
      // a request without a name (list, create) is not covered by a rule with names
      [{ verb: 'get', resource: 'configmaps' }, false],
    ],
  },
  {
    name: 'no resource names means all names',
    rule: newRule('get').groups('').resources('configmaps').rule(),
    expect: [
      [{ verb: 'get', resource: 'configmaps', name: 'anything' }, true],
      [{ verb: 'get', resource: 'configmaps' }, true],
    ],
  },
  {
    name: 'star nonresource, exact match other',
    rule: newRule('verb1').urls('*').rule(),
    expect: [
      [{ verb: 'verb1', url: '/foo' }, true],
      [{ verb: 'verb1', url: '/foo/bar' }, true],
      [{ verb: 'verb1', url: '/foo/bar/one' }, true],
      [{ verb: 'verb2', url: '/foo' }, false],
    ],
  },
  {
    name: 'star nonresource subpath',
    rule: newRule('verb1').urls('/foo/*').rule(),
    expect: [
      [{ verb: 'verb1', url: '/foo' }, false],
      [{ verb: 'verb1', url: '/foo/bar' }, true],
      [{ verb: 'verb1', url: '/foo/bar/one' }, true],
      [{ verb: 'verb1', url: '/notfoo' }, false],
      [{ verb: 'verb1', url: '/notfoo/bar' }, false],
    ],
  },
  {
    name: 'star suffix matches by prefix, not by segment',
    rule: newRule('get').urls('/healthz*').rule(),
    expect: [
      [{ verb: 'get', url: '/healthz' }, true],
      [{ verb: 'get', url: '/healthz/etcd' }, true],
      [{ verb: 'get', url: '/healthzz' }, true],
      [{ verb: 'get', url: '/health' }, false],
    ],
  },
  {
    name: 'star verb, exact nonresource',
    rule: newRule('*').urls('/foo', '/foo/bar/one').rule(),
    expect: [
      [{ verb: 'verb1', url: '/foo' }, true],
      [{ verb: 'verb1', url: '/foo/bar' }, false],
      [{ verb: 'verb1', url: '/foo/bar/one' }, true],
      [{ verb: 'verb2', url: '/foo/baz/one' }, false],
    ],
  },
  {
    name: 'resource rule never matches a non-resource request',
    rule: newRule('*').groups('*').resources('*').rule(),
    expect: [
      [{ verb: 'get', url: '/healthz' }, false],
      [{ verb: 'get', group: 'x', resource: 'y' }, true],
    ],
  },
  {
    name: 'non-resource rule never matches a resource request',
    rule: newRule('*').urls('*').rule(),
    expect: [
      [{ verb: 'get', resource: 'pods' }, false],
      [{ verb: 'get', url: '/anything' }, true],
    ],
  },
];

describe('ruleAllows', () => {
  for (const tc of cases) {
    it.each(tc.expect.map(([req, allowed]) => [JSON.stringify(req), req, allowed] as const))(`${tc.name}: %s`, (_label, req, allowed) => {
      expect(ruleAllows(attrs(req), tc.rule)).toBe(allowed);
    });
  }

  it('rulesAllow is true when any rule allows', () => {
    const rules = [newRule('get').groups('').resources('pods').rule(), newRule('list').groups('').resources('pods').rule()];
    expect(rulesAllow(attrs({ verb: 'list', resource: 'pods' }), rules)).toBe(true);
    expect(rulesAllow(attrs({ verb: 'watch', resource: 'pods' }), rules)).toBe(false);
    expect(rulesAllow(attrs({ verb: 'watch', resource: 'pods' }), [])).toBe(false);
  });

  it('treats a rule with null lists as matching nothing', () => {
    const rule: PolicyRule = { verbs: null, apiGroups: null, resources: null };
    expect(ruleAllows(attrs({ verb: 'get', resource: 'pods' }), rule)).toBe(false);
  });
});

describe('helpers', () => {
  it.each([
    [['*/status'], 'pods/status', 'status', true],
    [['*/status'], 'pods/status/x', 'status/x', false],
    [['pods/*'], 'pods/status', 'status', false],
    [['*/'], 'pods', '', false],
  ])('resourceMatches(%j, %s, %s) = %s', (resources, combined, sub, want) => {
    expect(resourceMatches({ resources }, combined, sub)).toBe(want);
  });

  it.each([
    [['/api/**'], '/api/v1', true],
    [['/api*'], '/apis', true],
    [['/api'], '/api/', false],
  ])('nonResourceURLMatches(%j, %s) = %s', (urls, url, want) => {
    expect(nonResourceURLMatches({ nonResourceURLs: urls }, url)).toBe(want);
  });
});

describe('groups written for Kubernetes', () => {
  const rule: PolicyRule = { verbs: ['get'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] };
  const get = (apiGroup: string) => resourceAttributes({ user, verb: 'get', apiGroup, resource: 'leases' });

  it('a rule naming a *.k8s.io group allows the *.platform.io group it is the alias of', () => {
    expect(ruleAllows(get('coordination.platform.io'), rule)).toBe(true);
    expect(ruleAllows(get('coordination.k8s.io'), rule)).toBe(true);
  });

  it('allows no other group', () => {
    expect(ruleAllows(get('apps'), rule)).toBe(false);
    expect(canonicalApiGroup('apps')).toBe('apps');
  });
});
