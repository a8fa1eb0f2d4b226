// AuthorizerController answers the authorization requests of gateways: each subject under the
// prefix (authz-nats's subjectNames) is a @MessagePattern routed to authorizerAnswers
// (libs/authz-nats), which reads the request, asks the Authorizer in a server span continuing
// the caller's trace, and leaves the reply to AuthzNatsTransport. A failed answer goes back as
// the error reply it is: ReplyWithError keeps Nest from replacing it with its generic error.
import { ArgumentsHost, Catch, Controller, Inject, RpcExceptionFilter, UseFilters } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import { Observable, throwError } from 'rxjs';
import { AuthorizerAnswers, subjectNames } from '@plinth/authz-nats';

// AUTHORIZER_ANSWERS is the injection token of the answers the controller routes to.
export const AUTHORIZER_ANSWERS = Symbol('AuthorizerAnswers');

@Catch()
export class ReplyWithError implements RpcExceptionFilter {
  catch(err: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => err);
  }
}

@Controller()
@UseFilters(ReplyWithError)
export class AuthorizerController {
  constructor(@Inject(AUTHORIZER_ANSWERS) private readonly answers: AuthorizerAnswers) {}

  @MessagePattern(subjectNames.authorize)
  authorize(@Payload() data: Uint8Array, @Ctx() context: NatsContext): Promise<unknown> {
    return this.answers.authorize(data, context.getSubject(), context.getHeaders());
  }

  @MessagePattern(subjectNames.rules)
  rulesReview(@Payload() data: Uint8Array, @Ctx() context: NatsContext): Promise<unknown> {
    return this.answers.rulesReview(data, context.getSubject(), context.getHeaders());
  }

  @MessagePattern(subjectNames.rbacWrite)
  rbacWrite(@Payload() data: Uint8Array, @Ctx() context: NatsContext): Promise<unknown> {
    return this.answers.rbacWrite(data, context.getSubject(), context.getHeaders());
  }
}
