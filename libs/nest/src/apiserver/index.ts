// @plinth/nest/apiserver: the host of the API server (gateway and all-in-one).
export { ApiServerHost, SERVER_FLAGS } from './api-server.host';
