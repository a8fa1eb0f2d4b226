// @plinth/authz-nats: the Authorizer port over NATS. The authz app serves its authorizer from
// its Nest microservice (libs/nest/src/authz) with authorizerAnswers and publishes policy
// changes; the gateway asks through NatsAuthorizer.
export { NatsAuthorizer, NatsAuthorizerOptions, AuthorizerUnavailableError } from './client';
export { AuthzLinkMetrics } from './metrics';
export { Answer, authorizerAnswers, AuthorizerAnswers, encodeReply, publishPolicyChanged, PublishPolicyChangedOptions, PolicyChangedPublisher } from './server';
export { encode, defaultSubjectPrefix, subjectNames, queueGroup, protocolVersion, subjectsFor, Subjects, ProtocolError, RemoteAuthorizerError } from './protocol';
export { DecisionCache, DecisionCacheOptions, decisionKey } from './decision-cache';
export { checkNatsLink, connectNats, NatsConnectOptions, NatsLinkError, NatsLinkSettings, natsSecurityOptions } from './connection';
export { natsPermissions, NatsPermissions, natsServerAuthorization, NatsUser } from './permissions';
