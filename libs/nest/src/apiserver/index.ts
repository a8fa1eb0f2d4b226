// @plinth/nest/apiserver: the host of the API server (gateway and all-in-one), and the
// credentials the all-in-one's own controllers reach it with.
export { ApiServerHost, SERVER_FLAGS } from './api-server.host';
export { inProcessCredentials } from './in-process-credentials';
