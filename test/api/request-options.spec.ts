// DeleteOptions bodies and query parameters are decoded as kube-apiserver decodes them: a value
// of the wrong type, an integer beyond int64 or a fieldManager with control characters is
// refused, and a refused request changes nothing (issue 11).
import { suiteServer } from './http';

const accounts = '/api/v1/namespaces/default/serviceaccounts';

describe('API server: request options', () => {
  const server = suiteServer();
  const { request } = server;

  async function account(name: string): Promise<void> {
    expect((await request('POST', accounts, { body: { metadata: { name } } })).status).toBe(201);
  }

  describe('DeleteOptions bodies', () => {
    it.each([
      ['a string grace period', '{"gracePeriodSeconds":"5"}', 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
      ['a grace period that is not an integer literal', '{"gracePeriodSeconds":1e2}', 'json: cannot unmarshal number 1e2 into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
      ['a string orphanDependents', '{"orphanDependents":"yes"}', 'json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool'],
      ['preconditions of the wrong type', '{"preconditions":[]}', 'json: cannot unmarshal array into Go struct field DeleteOptions.preconditions of type v1.Preconditions'],
      ['a number for a uid', '{"preconditions":{"uid":5}}', 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID'],
      ['an array', '[1]', 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
      ['another kind', '{"kind":"Pod"}', 'no kind "Pod" is registered for version "meta.k8s.io/v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"'],
    ])('refuse %s with a 400, and delete nothing', async (_what, body, message) => {
      await account('delete-body');
      const res = await request('DELETE', `${accounts}/delete-body`, { raw: body, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message });
      expect((await request('GET', `${accounts}/delete-body`)).status).toBe(200);
      expect((await request('DELETE', `${accounts}/delete-body`)).status).toBe(200);
    });

    it('are read alone when present, as kube-apiserver reads the query only without a body', async () => {
      await account('delete-body-only');
      const res = await request('DELETE', `${accounts}/delete-body-only?gracePeriodSeconds=not-read&propagationPolicy=Nope`, { raw: '{"propagationPolicy":"Background"}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect((await request('GET', `${accounts}/delete-body-only`)).status).toBe(404);
    });

    it('refuse an unknown propagationPolicy naming the values kube-apiserver supports', async () => {
      await account('delete-sideways');
      const res = await request('DELETE', `${accounts}/delete-sideways?propagationPolicy=Sideways`);
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({
        reason: 'Invalid',
        message: 'DeleteOptions.meta.platform.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      });
      expect((await request('GET', `${accounts}/delete-sideways`)).status).toBe(200);
    });

    it('takes a well-typed body', async () => {
      await account('delete-typed');
      const res = await request('DELETE', `${accounts}/delete-typed`, { raw: '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"propagationPolicy":"Background"}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect((await request('GET', `${accounts}/delete-typed`)).status).toBe(404);
    });
  });

  describe('integer query parameters', () => {
    it('refuse a grace period beyond int64 and keep the object', async () => {
      await account('grace-range');
      const res = await request('DELETE', `${accounts}/grace-range?gracePeriodSeconds=9223372036854775808`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
      expect((await request('GET', `${accounts}/grace-range`)).status).toBe(200);
      const syntax = await request('DELETE', `${accounts}/grace-range?gracePeriodSeconds=5s`);
      expect(syntax.json).toMatchObject({ reason: 'BadRequest', message: 'strconv.ParseInt: parsing "5s": invalid syntax' });
      expect((await request('GET', `${accounts}/grace-range`)).status).toBe(200);
    });

    it.each([
      ['limit=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
      ['limit=ten', 'strconv.ParseInt: parsing "ten": invalid syntax'],
      ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
      ['timeoutSeconds=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
      ['watch=1&timeoutSeconds=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ])('refuse %s on a list or watch with a 400', async (query, message) => {
      const res = await request('GET', `${accounts}?${query}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message });
    });

    it.each([
      ['resourceVersion=99999999999999999999', 'value out of range'],
      ['watch=1&resourceVersion=18446744073709551616', 'value out of range'],
      ['resourceVersion=abc', 'invalid syntax'],
    ])('answer %s as storage refuses it: a 500 without a reason', async (query, why) => {
      const value = query.split('resourceVersion=')[1];
      const res = await request('GET', `${accounts}?${query}`);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, message: `resourceVersion: Invalid value: "${value}": strconv.ParseUint: parsing "${value}": ${why}` });
    });

    it('refuse an unparsable resourceVersion of a paged list with a 400', async () => {
      const res = await request('GET', `${accounts}?limit=1&resourceVersion=abc`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' });
    });

    it('refuse an unparsable resourceVersion of a deletecollection with a 400, as it lists in pages, and delete nothing', async () => {
      await account('collection-kept');
      const res = await request('DELETE', `${accounts}?resourceVersion=0x10`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'invalid resource version: resourceVersion: Invalid value: "0x10": strconv.ParseUint: parsing "0x10": invalid syntax' });
      expect((await request('GET', `${accounts}/collection-kept`)).status).toBe(200);
    });

    it('take the largest int64', async () => {
      const res = await request('GET', `${accounts}?limit=9223372036854775807`);
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('ServiceAccountList');
    });
  });

  describe('label selectors', () => {
    it('read `a in ()` as labels.Parse does: the set of the empty value', async () => {
      expect((await request('POST', accounts, { body: { metadata: { name: 'label-empty', labels: { a: '' } } } })).status).toBe(201);
      expect((await request('POST', accounts, { body: { metadata: { name: 'label-set', labels: { a: 'x' } } } })).status).toBe(201);
      const res = await request('GET', `${accounts}?labelSelector=${encodeURIComponent('a in ()')}`);
      expect(res.status).toBe(200);
      expect(res.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['label-empty']);
    });

    it('end a token at NUL as the lexer does, so that what follows is a parse error', async () => {
      const res = await request('GET', `${accounts}?labelSelector=${encodeURIComponent('a=b\u0000c')}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: "found 'c', expected: ',' or 'end of string'" });
    });
  });

  describe('fieldManager', () => {
    it('refuses control characters as ValidateFieldManager does, and stores nothing', async () => {
      const res = await request('POST', `${accounts}?fieldManager=${encodeURIComponent('é\u0001b\u007f')}`, { body: { metadata: { name: 'manager-control' } } });
      expect(res.status).toBe(422);
      expect(res.json.reason).toBe('Invalid');
      expect(res.json.details.causes).toEqual([
        { reason: 'FieldValueInvalid', message: 'Invalid value: "é\\x01b\\x7f": invalid character U+0001 (at position 2)', field: 'fieldManager' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "é\\x01b\\x7f": invalid character U+007F (at position 4)', field: 'fieldManager' },
      ]);
      expect((await request('GET', `${accounts}/manager-control`)).status).toBe(404);
    });

    it('takes printable characters', async () => {
      const res = await request('POST', `${accounts}?fieldManager=${encodeURIComponent('my tool/1.0 (ü)')}`, { body: { metadata: { name: 'manager-printable', labels: { a: 'b' } } } });
      expect(res.status).toBe(201);
      expect(res.json.metadata.managedFields[0].manager).toBe('my tool/1.0 (ü)');
    });
  });
});
