// openapi-descriptions writes the descriptions Kubernetes 1.28 publishes for the OpenAPI
// definitions Plinth publishes (each definition's and each of its properties'), from the
// OpenAPI 3 documents a running kube-apiserver 1.28 serves (/openapi/v3/<group version>, each
// saved as a .json file in DIR: the source's api/openapi-spec/v3 lacks the "Possible enum
// values" the server adds), with Kubernetes' group names and key prefixes spelled as Plinth
// spells them (links kept), for kubectl explain:
//
//   node -r ./tools/register.js tools/openapi-descriptions.ts DIR
//
// writes libs/apiserver/src/openapi/kube-descriptions.json (the definitions it reads come from
// the served resources, whatever that file holds).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { swaggerDocument } from '../libs/apiserver/src/openapi';
import { builtinDefinitions } from '@plinth/registry';
import { renameAll } from '../test/differential/rename';

interface Described {
  description?: string;
  properties?: Record<string, string>;
}

type KubeSchema = { description?: string; properties?: Record<string, { description?: string }> };

function kubeSchemas(dir: string): Map<string, KubeSchema> {
  const schemas = new Map<string, KubeSchema>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const document = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { components?: { schemas?: Record<string, KubeSchema> } };
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) if (!schemas.has(name)) schemas.set(name, schema);
  }
  return schemas;
}

function main(): void {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: openapi-descriptions.ts DIR (the /openapi/v3 documents of kube-apiserver 1.28)');
  const kube = kubeSchemas(dir);
  const published = swaggerDocument({ served: builtinDefinitions(), aliases: [] })['definitions'] as Record<string, unknown>;
  const out: Record<string, Described> = {};
  for (const name of Object.keys(published).sort()) {
    const schema = kube.get(name);
    if (!schema) continue;
    const described: Described = {};
    if (schema.description) described.description = renameAll(schema.description);
    const properties = Object.entries(schema.properties ?? {}).filter(([, p]) => p.description);
    if (properties.length) described.properties = Object.fromEntries(properties.map(([p, v]) => [p, renameAll(v.description ?? '')]));
    if (described.description || described.properties) out[name] = described;
  }
  writeFileSync(join(__dirname, '..', 'libs', 'apiserver', 'src', 'openapi', 'kube-descriptions.json'), `${JSON.stringify(out, null, 1)}\n`);
}

main();
