// pending.yaml's format: a reason for both namings and forms, one per naming, and one per form.
import { parse } from 'yaml';
import { AreaFile, forms, Pending, pendingErrors, pendingReason } from './scenario';

const pending = parse(`
leases:
  both: "step 1 POST: differs"
  by naming: {platform: "step 2 GET: differs"}
  by form:
    distributed: "step 3 PUT: differs"
  by form and naming:
    all-in-one: {alias: "step 4 GET: differs"}
`) as Pending;

const leases: AreaFile = {
  area: 'leases',
  file: 'leases.yaml',
  scenarios: ['both', 'by naming', 'by form', 'by form and naming'].map((name) => ({ name, steps: [{ request: 'GET /api' }] })),
};

test('a reason without a form or naming holds for every form and naming', () => {
  expect(forms.flatMap((form) => ['platform', 'alias'].map((naming) => pendingReason(pending, 'leases', 'both', form, naming)))).toEqual(
    Array(4).fill('step 1 POST: differs'),
  );
});

test('a reason per naming holds in both forms for that naming only', () => {
  expect(pendingReason(pending, 'leases', 'by naming', 'distributed', 'platform')).toBe('step 2 GET: differs');
  expect(pendingReason(pending, 'leases', 'by naming', 'all-in-one', 'platform')).toBe('step 2 GET: differs');
  expect(pendingReason(pending, 'leases', 'by naming', 'distributed', 'alias')).toBeUndefined();
});

test('a reason under a form holds in that form only', () => {
  expect(pendingReason(pending, 'leases', 'by form', 'distributed', 'alias')).toBe('step 3 PUT: differs');
  expect(pendingReason(pending, 'leases', 'by form', 'all-in-one', 'alias')).toBeUndefined();
  expect(pendingReason(pending, 'leases', 'by form and naming', 'all-in-one', 'alias')).toBe('step 4 GET: differs');
  expect(pendingReason(pending, 'leases', 'by form and naming', 'all-in-one', 'platform')).toBeUndefined();
  expect(pendingReason(pending, 'leases', 'by form and naming', 'distributed', 'alias')).toBeUndefined();
});

test('a scenario that does not exist is no pending entry, nor is it listed', () => {
  expect(pendingReason(pending, 'leases', 'another', 'distributed', 'platform')).toBeUndefined();
  expect(pendingErrors(pending, [leases])).toEqual([]);
});

test('pendingErrors names unknown scenarios, keys that are neither a form nor a naming, and forms mixed with namings', () => {
  const wrong = parse(`
leases:
  gone: "x"
  both: {plaform: "x"}
  by form: {distributed: "x", alias: "y"}
  by naming: {all-in-one: {platform: 3}}
`) as Pending;
  expect(pendingErrors(wrong, [leases])).toEqual([
    'pending.yaml: leases: "gone" is no scenario',
    'pending.yaml: leases: "both": plaform is neither a form (all-in-one, distributed) nor a naming (platform, alias)',
    'pending.yaml: leases: "by form": alias is mixed with a form\'s entry (give every form its own)',
    'pending.yaml: leases: "by naming" all-in-one: the platform reason is not text',
  ]);
});
