// The package definition Nest's gRPC transport reads: storage.proto's service under its proto
// package, with the methods named as the .proto names them and ts-proto's codecs.
import { GrpcObject, loadPackageDefinition, ServiceClientConstructor } from '@grpc/grpc-js';
import { objectStoreService } from './codecs';
import { objectStorePackage, objectStorePackageDefinition, objectStoreServiceName } from './package-definition';

describe('objectStorePackageDefinition', () => {
  it('names the package, the service and its methods as storage.proto does', () => {
    expect(objectStorePackage).toBe('plinth.storage.v1');
    expect(objectStoreServiceName).toBe('ObjectStore');
    const service = objectStorePackageDefinition()['plinth.storage.v1.ObjectStore'] as Record<string, { path: string; requestStream: boolean; responseStream: boolean }>;
    expect(Object.keys(service)).toEqual(['Get', 'List', 'Create', 'Update', 'Delete', 'CurrentRevision', 'Compact', 'Watch', 'Exchange']);
    for (const [name, method] of Object.entries(service)) expect(method.path).toBe(`/plinth.storage.v1.ObjectStore/${name}`);
    expect([service.Watch.requestStream, service.Watch.responseStream]).toEqual([false, true]);
    expect([service.Exchange.requestStream, service.Exchange.responseStream]).toEqual([true, true]);
  });

  it('carries the codecs GrpcObjectStore uses, so both ends encode alike', () => {
    const loaded = loadPackageDefinition(objectStorePackageDefinition());
    const v1 = ((loaded.plinth as GrpcObject).storage as GrpcObject).v1 as GrpcObject;
    const client = v1.ObjectStore as ServiceClientConstructor;
    expect(client.service.Get.requestSerialize).toBe(objectStoreService.get.requestSerialize);
    expect(client.service.Exchange.responseDeserialize).toBe(objectStoreService.exchange.responseDeserialize);
  });
});
