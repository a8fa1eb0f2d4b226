export { openApiRoutes, OpenApiRoute, OpenApiOptions, v2ProtobufMediaType, v2ProtobufMediaTypeDeprecated } from './routes';
export { OpenApiDocuments, SerializedDocument, documentHash } from './service';
export { openApiV3Document, openApiV3Discovery, swaggerDocument, groupVersionDefinitions, CatalogView, OpenApiInfo, defaultInfo } from './documents';
export { encodeSwaggerProtobuf } from './v2-protobuf';
export { kindDefinitionName, listDefinitionName, definitionPackage, groupVersionPath, operationGroupVersion, operationTag, GroupVersionKind } from './names';
export { resourcePaths } from './operations';
