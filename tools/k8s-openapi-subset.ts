// k8s-openapi-subset writes the definitions of Kubernetes' published OpenAPI (swagger.json of
// a release, api/openapi-spec/swagger.json in its source) that the chart's kinds need, with
// everything they refer to, for test/helm/chart-schema.spec.ts:
//
//   node -r ./tools/register.js tools/k8s-openapi-subset.ts swagger.json > test/helm/testdata/k8s-1.28-openapi.json
import { readFileSync } from 'node:fs';

// chartKinds are the top-level definitions: every kind the chart renders but ServiceMonitor
// (a Prometheus Operator CRD, not Kubernetes').
export const chartKinds = [
  'io.k8s.api.core.v1.ConfigMap',
  'io.k8s.api.core.v1.Secret',
  'io.k8s.api.core.v1.Service',
  'io.k8s.api.core.v1.ServiceAccount',
  'io.k8s.api.apps.v1.Deployment',
  'io.k8s.api.apps.v1.StatefulSet',
  'io.k8s.api.policy.v1.PodDisruptionBudget',
  'io.k8s.api.networking.v1.NetworkPolicy',
];

type Definitions = Record<string, unknown>;

// closure collects the definitions the roots refer to through $ref, transitively.
export function closure(definitions: Definitions, roots: string[]): Definitions {
  const kept: Definitions = {};
  const visit = (name: string) => {
    if (name in kept) return;
    const definition = definitions[name];
    if (definition === undefined) throw new Error(`no definition ${name}`);
    kept[name] = definition;
    for (const match of JSON.stringify(definition).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) visit(match[1]);
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
}

if (require.main === module) {
  const [file] = process.argv.slice(2);
  if (!file) {
    console.error('usage: k8s-openapi-subset.ts swagger.json');
    process.exit(2);
  }
  const swagger = JSON.parse(readFileSync(file, 'utf8')) as { info: unknown; definitions: Definitions };
  process.stdout.write(`${JSON.stringify({ info: swagger.info, definitions: closure(swagger.definitions, chartKinds) }, null, 1)}\n`);
}
