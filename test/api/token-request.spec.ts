// TokenRequest (serviceaccounts/<name>/token) as kube-apiserver's TokenREST.Create answers it:
// the body's names, the object a token is bound to, what the answer records, and the methods the
// subresource has.
import { client, suiteServer } from './http';

describe('API server: TokenRequest', () => {
  const server = suiteServer();
  const admin = server.request;
  const tokenPath = '/api/v1/namespaces/tokens/serviceaccounts/robot/token';
  const pod = (name: string, serviceAccountName: string) => ({ metadata: { name }, spec: { serviceAccountName, containers: [{ name: 'c', image: 'busybox' }] } });

  beforeAll(async () => {
    await admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'tokens' } } });
    for (const name of ['robot', 'other']) await admin('POST', '/api/v1/namespaces/tokens/serviceaccounts', { body: { metadata: { name } } });
  });

  it('refuses a body whose name is not the service account', async () => {
    const answer = await admin('POST', tokenPath, { body: { metadata: { name: 'someone' }, spec: {} } });
    expect(answer.status).toBe(422);
    expect(answer.json.message).toBe('TokenRequest.authentication.platform.io "robot" is invalid: metadata.name: Invalid value: "someone": must match the service account name if specified');
  });

  it('refuses a body of another namespace as any create does, before the service account is read', async () => {
    const answer = await admin('POST', '/api/v1/namespaces/tokens/serviceaccounts/nobody/token', { body: { metadata: { namespace: 'elsewhere' }, spec: {} } });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('issues a token to a dry run too, as TokenREST takes no dryRun', async () => {
    const answer = await admin('POST', `${tokenPath}?dryRun=All`, { body: { spec: {} } });
    expect(answer.status).toBe(201);
    expect(answer.json.status.token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('stamps the answer with its creation time and the fields the client sent, expirationSeconds defaulted', async () => {
    const answer = await admin('POST', tokenPath, { body: { spec: { audiences: ['example.com/a'] } }, headers: { 'user-agent': 'tester/1.0' } });
    expect(answer.status).toBe(201);
    expect(answer.json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const [{ time, ...entry }] = answer.json.metadata.managedFields;
    expect(time).toBe(answer.json.metadata.creationTimestamp);
    expect(entry).toEqual({
      manager: 'tester',
      operation: 'Update',
      apiVersion: 'authentication.platform.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:audiences': {}, 'f:expirationSeconds': {} } },
      subresource: 'token',
    });
  });

  it('binds a token to a Pod of the service account, whose name and uid a review then reports, until the Pod is gone', async () => {
    const made = await admin('POST', '/api/v1/namespaces/tokens/pods', { body: pod('bound', 'robot') });
    expect(made.status).toBe(201);
    const issued = await admin('POST', tokenPath, { body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound' } } } });
    expect(issued.status).toBe(201);
    expect(issued.json.spec.boundObjectRef).toEqual({ kind: 'Pod', apiVersion: 'v1', name: 'bound' });
    expect(issued.json.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:boundObjectRef': { 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} }, 'f:expirationSeconds': {} } });
    const review = (token: string) => admin('POST', '/apis/authentication.platform.io/v1/tokenreviews', { body: { spec: { token } } });
    const reviewed = await review(issued.json.status.token);
    expect(reviewed.json.status.authenticated).toBe(true);
    expect(reviewed.json.status.user.extra).toEqual({ 'authentication.platform.io/pod-name': ['bound'], 'authentication.platform.io/pod-uid': [made.json.metadata.uid] });
    expect((await admin('DELETE', '/api/v1/namespaces/tokens/pods/bound?gracePeriodSeconds=0')).status).toBe(200);
    const after = await review(issued.json.status.token);
    expect(after.json.status).toEqual({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });
  });

  it('refuses to bind to a Pod that is not there, runs as another account, or has another uid', async () => {
    const bind = (ref: Record<string, string>) => admin('POST', tokenPath, { body: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', ...ref } } } });
    const nameless = await bind({});
    expect(nameless.status).toBe(400);
    expect(nameless.json.message).toBe('Name parameter required.');
    const missing = await bind({ name: 'nowhere' });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('pods "nowhere" not found');
    expect((await admin('POST', '/api/v1/namespaces/tokens/pods', { body: pod('others', 'other') })).status).toBe(201);
    const foreign = await bind({ name: 'others' });
    expect(foreign.status).toBe(400);
    expect(foreign.json.message).toBe('cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    expect((await admin('POST', '/api/v1/namespaces/tokens/pods', { body: pod('mine', 'robot') })).status).toBe(201);
    const stale = await bind({ name: 'mine', uid: '00000000-0000-0000-0000-000000000001' });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      details: { name: 'mine', kind: 'Pod' },
      message: 'Operation cannot be fulfilled on Pod "mine": the UID in the bound object reference (00000000-0000-0000-0000-000000000001) does not match the UID in record. The object might have been deleted and then recreated',
    });
  });

  it('answers only POST, as a route of its own', async () => {
    for (const method of ['GET', 'PUT']) {
      const answer = await client(server.url)(method, tokenPath, method === 'PUT' ? { body: { spec: {} } } : undefined);
      expect(answer.status).toBe(405);
      expect(answer.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 });
    }
  });
});
