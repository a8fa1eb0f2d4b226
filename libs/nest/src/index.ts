export { OBJECT_STORE } from './storage/object-store.token';
export { ApiServerHost, SERVER_FLAGS } from './apiserver/api-server.host';
export { ControllersHost } from './controllers/controllers.host';
