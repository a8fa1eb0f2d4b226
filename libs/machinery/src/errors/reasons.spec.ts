import * as reasons from './reasons';
import * as errors from './status';
import { StatusError } from './status';

const jobs = { group: 'batch', resource: 'jobs' };

function withCode(code: number, reason = ''): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: reason as errors.StatusReason, code });
}

describe('reason predicates', () => {
  it('answer by reason', () => {
    expect(reasons.isNotFound(errors.notFound(jobs, 'x'))).toBe(true);
    expect(reasons.isAlreadyExists(errors.alreadyExists(jobs, 'x'))).toBe(true);
    expect(reasons.isConflict(errors.conflict(jobs, 'x', 'c'))).toBe(true);
    expect(reasons.isInvalid(errors.invalid({ group: 'batch', kind: 'Job' }, 'x', []))).toBe(true);
    expect(reasons.isResourceExpired(errors.resourceExpired('old'))).toBe(true);
    expect(reasons.isGone(errors.resourceExpired('old'))).toBe(false);
    expect(reasons.isNotFound(errors.alreadyExists(jobs, 'x'))).toBe(false);
    expect(reasons.isNotFound(new Error('not found'))).toBe(false);
  });

  it('fall back to the code when the reason is unknown', () => {
    expect(reasons.isNotFound(withCode(404))).toBe(true);
    expect(reasons.isConflict(withCode(409))).toBe(true);
    expect(reasons.isNotFound(withCode(404, 'Gone'))).toBe(false);
    expect(reasons.isAlreadyExists(withCode(409))).toBe(false);
  });

  it('reasonForError gives Unknown for plain errors', () => {
    expect(reasons.reasonForError(errors.gone('x'))).toBe('Gone');
    expect(reasons.reasonForError(new Error('x'))).toBe('');
  });
});
