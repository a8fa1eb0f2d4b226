// ObjectStoreController routes the calls of storage.proto's ObjectStore service to
// objectStoreHandlers (libs/storage-grpc): the unary calls and Watch through @GrpcMethod, the
// Exchange stream through @GrpcStreamMethod. StorageStatusFilter ends a failed call with the
// status that carries its StorageError.
import { Metadata } from '@grpc/grpc-js';
import { ArgumentsHost, Catch, Controller, Inject, RpcExceptionFilter, UseFilters } from '@nestjs/common';
import { GrpcMethod, GrpcStreamMethod } from '@nestjs/microservices';
import { Observable, throwError } from 'rxjs';
import { storagev1 } from '@plinth/proto';
import { ExchangeCall, ObjectStoreHandlers, objectStoreServiceName, toStatus, WatchCall } from '@plinth/storage-grpc';

// OBJECT_STORE_HANDLERS is the injection token of the handlers the controller routes to.
export const OBJECT_STORE_HANDLERS = Symbol('ObjectStoreHandlers');

@Catch()
export class StorageStatusFilter implements RpcExceptionFilter {
  catch(err: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => toStatus(err));
  }
}

const service = objectStoreServiceName;

@Controller()
@UseFilters(StorageStatusFilter)
export class ObjectStoreController {
  constructor(@Inject(OBJECT_STORE_HANDLERS) private readonly handlers: ObjectStoreHandlers) {}

  @GrpcMethod(service)
  get(request: storagev1.GetRequest, metadata: Metadata): Promise<storagev1.GetResponse> {
    return this.handlers.get(request, metadata);
  }

  @GrpcMethod(service)
  list(request: storagev1.ListRequest, metadata: Metadata): Promise<storagev1.ListResponse> {
    return this.handlers.list(request, metadata);
  }

  @GrpcMethod(service)
  create(request: storagev1.CreateRequest, metadata: Metadata): Promise<storagev1.CreateResponse> {
    return this.handlers.create(request, metadata);
  }

  @GrpcMethod(service)
  update(request: storagev1.UpdateRequest, metadata: Metadata): Promise<storagev1.UpdateResponse> {
    return this.handlers.update(request, metadata);
  }

  @GrpcMethod(service)
  delete(request: storagev1.DeleteRequest, metadata: Metadata): Promise<storagev1.DeleteResponse> {
    return this.handlers.delete(request, metadata);
  }

  @GrpcMethod(service)
  currentRevision(request: storagev1.CurrentRevisionRequest, metadata: Metadata): Promise<storagev1.CurrentRevisionResponse> {
    return this.handlers.currentRevision(request, metadata);
  }

  @GrpcMethod(service)
  compact(request: storagev1.CompactRequest, metadata: Metadata): Promise<storagev1.CompactResponse> {
    return this.handlers.compact(request, metadata);
  }

  @GrpcMethod(service)
  watch(request: storagev1.WatchRequest, metadata: Metadata, call: WatchCall): Observable<storagev1.WatchResponse> {
    return this.handlers.watch(request, metadata, call);
  }

  @GrpcStreamMethod(service)
  exchange(requests: Observable<storagev1.ExchangeRequest>, metadata: Metadata, call: ExchangeCall): Observable<storagev1.ExchangeResponse> {
    return this.handlers.exchange(requests, metadata, call);
  }
}
