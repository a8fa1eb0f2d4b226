// @plinth/nest/authz: the authz microservice (its NATS transport and controller) and
// serveAuthorizer, which runs them in a test's process.
export { AuthorizerController, AUTHORIZER_ANSWERS, ReplyWithError } from './authorizer.controller';
export { AuthzNatsTransport, AuthzNatsTransportOptions } from './authz-nats.transport';
export { serveAuthorizer, ServeAuthorizerOptions, AuthorizerService } from './serve-authorizer';
