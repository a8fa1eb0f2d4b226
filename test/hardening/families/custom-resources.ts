// Custom resources of a definition with patterns, formats, sets, enums, a validation rule and a
// free-form object: damaged manifests, words that make a backtracking matcher spin, and patches
// of each type against a fixture widget.
import { CaseDraft } from '../hostile-case';
import { widget, widgetFixture, widgetsCollection } from '../fixtures';
import { toJson, toYaml } from '../json-tree';
import { mutateTree } from '../mutators';
import { fromPlain } from '../json-tree';
import { Prng } from '../prng';
import { damaged } from './bodies';

// hostileWords are values of spec.word, whose pattern is ^(a+)+$.
const hostileWords = [`${'a'.repeat(40)}!`, `${'a'.repeat(99)}b`, 'a'.repeat(100), 'a'.repeat(101), '', 'ф'.repeat(50)];

const patchTypes = ['application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json'];

export function customResources(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const base = { credential: { kind: 'admin' as const }, snapshots: [widgetsCollection] };
    const shape = prng.int(4);
    if (shape === 0) {
      const word = prng.pick(hostileWords);
      const manifest = widget(`word-${i}`);
      const body = { ...manifest, spec: { ...manifest.spec, word, ...(prng.chance(0.3) ? { strict: 'x' } : {}) } };
      return { ...base, family: 'custom-resource', tag: 'widget:word', what: `spec.word of ${word.length} characters`, method: 'POST', path: widgetsCollection, headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(body)) };
    }
    if (shape === 1) {
      const type = prng.pick(patchTypes);
      const m = type === 'application/json-patch+json' ? null : mutateTree(prng, fromPlain(type === 'application/apply-patch+yaml' ? widget(widgetFixture) : { spec: { word: 'aa', tags: ['z'], free: { x: 1 } } }));
      const body = m ? (type === 'application/apply-patch+yaml' && prng.chance(0.5) ? toYaml(m.value) : toJson(m.value)) : JSON.stringify([{ op: prng.pick(['add', 'replace', 'remove']), path: prng.pick(['/spec/word', '/spec/tags/-', '/spec/free/deep', '/spec/size', '/spec/strict', '/metadata/labels/x']), value: prng.pick([`${'a'.repeat(40)}!`, 2147483648, { a: { b: {} } }, null, 'x']) }]);
      return {
        ...base,
        family: 'custom-resource-patch',
        tag: m ? `widget-patch:${m.tag}` : 'widget-patch:json',
        what: m ? m.what : body,
        method: 'PATCH',
        path: `${widgetsCollection}/${widgetFixture}${type === 'application/apply-patch+yaml' ? '?fieldManager=hostile' : ''}`,
        headers: [['content-type', type]],
        body: Buffer.from(body),
      };
    }
    const { tree, tag, what } = damaged(prng, widget(`widget-${i}`));
    const asYaml = shape === 3;
    return {
      ...base,
      family: 'custom-resource',
      tag,
      what,
      method: 'POST',
      path: widgetsCollection,
      headers: [['content-type', asYaml ? 'application/yaml' : 'application/json']],
      body: Buffer.from(asYaml ? toYaml(tree) : toJson(tree)),
    };
  });
}
