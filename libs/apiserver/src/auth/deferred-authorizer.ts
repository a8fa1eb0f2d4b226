// DeferredAuthorizer stands for an authorizer still being set up (the gateway's connection to
// the authz service, which may start after it): until it is given, every question fails as an
// unavailable authorizer fails (500), and /readyz's check of it fails. system:masters is
// allowed meanwhile, as the privileged-group authorizer allows it before any other: the
// administrators can read /readyz and act while the authz service is out of reach.
import { KubeObject } from '@plinth/api';
import { StatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, Authorizer, SubjectRulesReviewStatus, SystemPrivilegedGroup, UserInfo } from '@plinth/rbac';
import { HealthCheck } from '../health';

export class DeferredAuthorizer implements Authorizer {
  private target: Authorizer | null = null;

  constructor(private readonly waitingFor: string) {}

  // set gives the authorizer every later question goes to.
  set(target: Authorizer): void {
    this.target = target;
  }

  // readyCheck is the /readyz check named after what is awaited.
  readyCheck(name: string): HealthCheck {
    return {
      name,
      check: async () => {
        this.ready();
      },
    };
  }

  async authorize(attrs: Attributes): Promise<AuthorizationResult> {
    if (!this.target && attrs.user.groups.includes(SystemPrivilegedGroup)) return { decision: 'Allow', reason: '', evaluationError: '', resolutionErrors: [] };
    return this.ready().authorize(attrs);
  }

  rulesReview(user: UserInfo, namespace: string): Promise<SubjectRulesReviewStatus> {
    return this.ready().rulesReview(user, namespace);
  }

  async checkRbacWrite(kind: string, user: UserInfo, object: KubeObject, old: KubeObject | null, namespace: string, requestName: string): Promise<StatusError | null> {
    if (!this.target && user.groups.includes(SystemPrivilegedGroup)) return null;
    return this.ready().checkRbacWrite(kind, user, object, old, namespace, requestName);
  }

  private ready(): Authorizer {
    if (!this.target) throw new Error(`waiting for ${this.waitingFor}`);
    return this.target;
  }
}
