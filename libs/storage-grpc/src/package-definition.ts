// The storage service as a grpc-js package definition, for a server that finds its services in
// one (Nest's gRPC transport does). It is storage.proto's service as ts-proto generated it, with
// the same binary codecs GrpcObjectStore uses (objectStoreService), the methods named as in the
// .proto (Get, Watch, ...) as @GrpcMethod names them; no .proto file is read at run time.
import { loadPackageDefinition, MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { objectStoreService } from './codecs';
import { serviceName } from './service';

// objectStorePackage is the proto package, and objectStoreServiceName the service's name in it.
export const objectStorePackage = serviceName.slice(0, serviceName.lastIndexOf('.'));
export const objectStoreServiceName = serviceName.slice(serviceName.lastIndexOf('.') + 1);

// PackageDefinition is what grpc-js's loadPackageDefinition reads.
export type PackageDefinition = Parameters<typeof loadPackageDefinition>[0];

export function objectStorePackageDefinition(): PackageDefinition {
  const methods: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(objectStoreService)) {
    methods[name.charAt(0).toUpperCase() + name.slice(1)] = method as MethodDefinition<unknown, unknown>;
  }
  return { [serviceName]: methods as ServiceDefinition };
}
