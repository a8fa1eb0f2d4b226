import * as field from './field';
import { newPath } from './field';
import * as errors from './status';
import { isStatusError, StatusError } from './status';

const jobs = { group: 'batch', resource: 'jobs' };
const pods = { group: '', resource: 'pods' };
const job = { group: 'batch', kind: 'Job' };

describe('Status errors', () => {
  it('notFound: 404 NotFound with group, plural kind and name', () => {
    const err = errors.notFound(jobs, 'x');
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('jobs.batch "x" not found');
    expect(err.code).toBe(404);
    expect(err.reason).toBe('NotFound');
    expect(JSON.stringify(err.errStatus)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"jobs.batch \\"x\\" not found",' +
        '"reason":"NotFound","details":{"name":"x","group":"batch","kind":"jobs"},"code":404}',
    );
  });

  it('notFound in the core group omits the group', () => {
    const err = errors.notFound(pods, 'p');
    expect(err.message).toBe('pods "p" not found');
    expect(err.errStatus.details).toEqual({ name: 'p', kind: 'pods' });
  });

  it('alreadyExists: 409 AlreadyExists', () => {
    const err = errors.alreadyExists(jobs, 'x');
    expect([err.code, err.reason, err.message]).toEqual([409, 'AlreadyExists', 'jobs.batch "x" already exists']);
  });

  it('conflict: 409 Conflict with the detail after the name', () => {
    const err = errors.conflict(jobs, 'x', 'the object has been modified; please apply your changes to the latest version and try again');
    expect([err.code, err.reason]).toEqual([409, 'Conflict']);
    expect(err.message).toBe(
      'Operation cannot be fulfilled on jobs.batch "x": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(errors.conflict(jobs, 'x', new Error('boom')).message).toBe('Operation cannot be fulfilled on jobs.batch "x": boom');
  });

  it('invalid: 422 Invalid with one cause per field error', () => {
    const errs = [field.required(newPath('spec', 'a'), ''), field.invalid(newPath('spec', 'completions'), 5, 'must be <= 3')];
    const err = errors.invalid(job, 'x', errs);
    expect([err.code, err.reason]).toEqual([422, 'Invalid']);
    expect(err.message).toBe('Job.batch "x" is invalid: [spec.a: Required value, spec.completions: Invalid value: 5: must be <= 3]');
    expect(err.errStatus.details).toEqual({
      name: 'x',
      group: 'batch',
      kind: 'Job',
      causes: [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.a' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: 5: must be <= 3', field: 'spec.completions' },
      ],
    });
  });

  it('invalid with one error prints it without brackets; core kinds have no group', () => {
    const err = errors.invalid({ group: '', kind: 'Pod' }, 'p', [field.required(newPath('spec', 'containers'), '')]);
    expect(err.message).toBe('Pod "p" is invalid: spec.containers: Required value');
    expect(err.errStatus.details).toEqual({
      name: 'p',
      kind: 'Pod',
      causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }],
    });
  });

  it('invalid with no errors has no aggregate', () => {
    expect(errors.invalid(job, 'x', []).message).toBe('Job.batch "x" is invalid');
  });

  it('invalid keeps duplicate causes but prints each message once', () => {
    const e = field.required(newPath('spec'), '');
    const err = errors.invalid(job, 'x', [e, e]);
    expect(err.message).toBe('Job.batch "x" is invalid: spec: Required value');
    expect(err.errStatus.details?.causes).toHaveLength(2);
  });

  it('forbidden: 403 with or without a name or resource', () => {
    const err = errors.forbidden(jobs, 'x', 'User "bob" cannot get resource "jobs" in API group "batch" in the namespace "ns"');
    expect([err.code, err.reason]).toEqual([403, 'Forbidden']);
    expect(err.message).toBe('jobs.batch "x" is forbidden: User "bob" cannot get resource "jobs" in API group "batch" in the namespace "ns"');
    expect(errors.forbidden(jobs, '', 'no').message).toBe('jobs.batch is forbidden: no');
    expect(errors.forbidden({ group: '', resource: '' }, '', 'no').message).toBe('forbidden: no');
    expect(errors.forbidden(jobs, '', 'no').errStatus.details).toEqual({ group: 'batch', kind: 'jobs' });
  });

  it('unauthorized: 401 with a default message', () => {
    expect(errors.unauthorized().message).toBe('not authorized');
    expect(errors.unauthorized('Unauthorized').errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('badRequest: 400 BadRequest with the reason as message', () => {
    const err = errors.badRequest('unable to parse requirement: found \'\', expected: identifier');
    expect([err.code, err.reason, err.message]).toEqual([400, 'BadRequest', "unable to parse requirement: found '', expected: identifier"]);
    expect(err.errStatus.details).toBeUndefined();
  });

  it('methodNotSupported: 405 MethodNotAllowed', () => {
    const err = errors.methodNotSupported(jobs, 'deletecollection');
    expect([err.code, err.reason]).toEqual([405, 'MethodNotAllowed']);
    expect(err.message).toBe('deletecollection is not supported on resources of kind "jobs.batch"');
    expect(err.errStatus.details).toEqual({ group: 'batch', kind: 'jobs' });
  });

  it('notAcceptable: 406 NotAcceptable listing the media types', () => {
    const err = errors.notAcceptable(['application/json', 'application/yaml', 'application/vnd.platform.protobuf']);
    expect([err.code, err.reason]).toEqual([406, 'NotAcceptable']);
    expect(err.message).toBe(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf',
    );
  });

  it('unsupportedMediaType: 415 UnsupportedMediaType', () => {
    const err = errors.unsupportedMediaType(['application/json', 'application/yaml']);
    expect([err.code, err.reason]).toEqual([415, 'UnsupportedMediaType']);
    expect(err.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  });

  it('requestEntityTooLarge: 413', () => {
    const err = errors.requestEntityTooLarge('limit is 3145728');
    expect([err.code, err.reason, err.message]).toEqual([413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728']);
  });

  it('gone and resourceExpired: 410 with reasons Gone and Expired', () => {
    expect([errors.gone('gone').code, errors.gone('gone').reason]).toEqual([410, 'Gone']);
    const expired = errors.resourceExpired('too old resource version: 1 (5)');
    expect([expired.code, expired.reason, expired.message]).toEqual([410, 'Expired', 'too old resource version: 1 (5)']);
    expect(expired.errStatus.details).toBeUndefined();
  });

  it('tooManyRequests: 429 with retryAfterSeconds, and the Too many requests: form', () => {
    const err = errors.tooManyRequests('slow down', 2);
    expect([err.code, err.reason, err.message]).toEqual([429, 'TooManyRequests', 'slow down']);
    expect(err.errStatus.details).toEqual({ retryAfterSeconds: 2 });
    expect(errors.tooManyRequests('slow down', 0).errStatus.details).toEqual({});
    expect(errors.tooManyRequestsError('limit reached').message).toBe('Too many requests: limit reached');
  });

  it('internalError: 500 InternalError with the error as cause', () => {
    const err = errors.internalError(new Error('boom'));
    expect([err.code, err.reason, err.message]).toEqual([500, 'InternalError', 'Internal error occurred: boom']);
    expect(err.errStatus.details).toEqual({ causes: [{ message: 'boom' }] });
  });

  it('serviceUnavailable: 503', () => {
    const err = errors.serviceUnavailable('storage unreachable');
    expect([err.code, err.reason, err.message]).toEqual([503, 'ServiceUnavailable', 'storage unreachable']);
  });

  it('timeout: 504 Timeout', () => {
    const err = errors.timeout('request did not complete within requested timeout - context deadline exceeded', 0);
    expect([err.code, err.reason]).toEqual([504, 'Timeout']);
    expect(err.message).toBe('Timeout: request did not complete within requested timeout - context deadline exceeded');
  });

  it('serverTimeout: 500 ServerTimeout naming the operation', () => {
    const err = errors.serverTimeout(jobs, 'create', 2);
    expect([err.code, err.reason]).toEqual([500, 'ServerTimeout']);
    expect(err.message).toBe('The create operation against jobs.batch could not be completed at this time, please try again.');
    expect(err.errStatus.details).toEqual({ name: 'create', group: 'batch', kind: 'jobs', retryAfterSeconds: 2 });
  });

  it('applyConflict: 409 Conflict with field causes', () => {
    const causes = [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.parallelism' }];
    const err = errors.applyConflict(causes, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.parallelism');
    expect([err.code, err.reason]).toEqual([409, 'Conflict']);
    expect(err.errStatus.details).toEqual({ causes });
  });

  it('quotes names as Go %q does', () => {
    expect(errors.notFound(jobs, 'a"b').message).toBe('jobs.batch "a\\"b" not found');
  });
});

describe('isStatusError', () => {
  it('recognises StatusError and nothing else', () => {
    expect(isStatusError(errors.notFound(jobs, 'x'))).toBe(true);
    expect(isStatusError(new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500 }))).toBe(true);
    expect(isStatusError(new Error('x'))).toBe(false);
    expect(isStatusError({ code: 404 })).toBe(false);
    expect(isStatusError(undefined)).toBe(false);
  });
});
