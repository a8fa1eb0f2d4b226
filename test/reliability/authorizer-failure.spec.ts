// The distributed gateway without its authorizer (the authz app stopped): a request it cannot
// decide on is answered as kube-apiserver's WithAuthorization answers an authorizer error, a
// plain-text 500 naming the request URI and the error (responsewriters.InternalError); the
// impersonation filter takes the failure for a refusal (403); an access review says the
// authorizer's error in evaluationError; system:masters is never asked.
import { subjectsFor } from '@plinth/authz-nats';
import { eventually } from '@plinth/testing';
import { DistributedPlinth, HttpAnswer, startDistributed } from '../distributed';

const adminToken = 'admin-token';
const aliceToken = 'alice-token';

describe('the distributed gateway when its authorizer fails', () => {
  let plinth: DistributedPlinth;
  // refusedWhileUp is alice's answer while authz was still answering.
  let refusedWhileUp: HttpAnswer;

  beforeAll(async () => {
    plinth = await startDistributed({});
    refusedWhileUp = await plinth.request('GET', '/api/v1/namespaces/default/pods', aliceToken);
    await plinth.stopApp('authz');
  }, 120_000);
  afterAll(() => plinth?.stop(), 60_000);

  it("answers with kube-apiserver's authorization filter plain-text 500", async () => {
    expect({ status: refusedWhileUp.status, reason: JSON.parse(refusedWhileUp.body).reason }).toEqual({ status: 403, reason: 'Forbidden' });
    const path = '/api/v1/namespaces/kube-system/configmaps?limit=1&labelSelector=a%3Db';
    let answer: HttpAnswer = { status: 0, body: '' };
    // The gateway hears that no one answers the subject once the authz app's subscription is gone.
    await eventually(
      async () => {
        answer = await plinth.request('GET', path, aliceToken);
        return answer.status === 500;
      },
      { what: () => `a 500 for a request authz cannot decide (last: ${answer.status} ${answer.body})` },
    );
    expect(answer).toEqual({
      status: 500,
      contentType: 'text/plain; charset=utf-8',
      // The whole text is HTML-escaped, the URI's & too, as responsewriters' sanitizer does.
      body: `Internal Server Error: "${path.replace('&', '&amp;')}": no authorization service is answering on ${subjectsFor().authorize}\n`,
    });
  }, 60_000);

  it('refuses an impersonation it cannot authorize with a Forbidden Status without a reason', async () => {
    const answer = await plinth.request('GET', '/api/v1/namespaces/default/pods', aliceToken, undefined, { 'Impersonate-User': 'bob' });
    expect({ status: answer.status, message: JSON.parse(answer.body).message }).toEqual({
      status: 403,
      message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    });
  });

  it('serves system:masters without asking, and says the failure in an access review', async () => {
    expect((await plinth.request('GET', '/api/v1/namespaces/default/serviceaccounts', adminToken)).status).toBe(200);
    const review = await plinth.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', adminToken, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'carol', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } },
    });
    expect({ status: review.status, reviewStatus: JSON.parse(review.body).status }).toEqual({
      status: 201,
      reviewStatus: { allowed: false, evaluationError: `no authorization service is answering on ${subjectsFor().authorize}` },
    });
  });
});
