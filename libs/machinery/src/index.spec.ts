import * as machinery from './index';
import { errors, field, validation } from './index';

describe('@plinth/machinery public surface', () => {
  it('exposes errors, field and validation under Kubernetes package names', () => {
    const err = errors.invalid({ group: 'batch', kind: 'Job' }, 'x', [field.required(field.newPath('spec', 'template'), '')]);
    expect(errors.isStatusError(err)).toBe(true);
    expect(errors.isInvalid(err)).toBe(true);
    expect(err.message).toBe('Job.batch "x" is invalid: spec.template: Required value');
    expect(validation.isDNS1123Label('ns-1')).toEqual([]);
    expect(validation.validateLabels({ a: 'b' }, field.newPath('metadata', 'labels'))).toEqual([]);
  });

  it('exposes the Status constructors, selectors and clock at the top level', () => {
    expect(machinery.notFound({ group: '', resource: 'pods' }, 'p').message).toBe('pods "p" not found');
    expect(machinery.parseLabelSelector('a=b').matches({ a: 'b' })).toBe(true);
    expect(machinery.parseFieldSelector('metadata.name=x').matches({ 'metadata.name': 'x' })).toBe(true);
    expect(machinery.labelSelectorAsSelector({ matchLabels: { a: 'b' } }).toString()).toBe('a=b');
    expect(machinery.newPath('a').key('b').toString()).toBe('a[b]');
    expect(typeof machinery.realClock.now()).toBe('number');
  });
});
