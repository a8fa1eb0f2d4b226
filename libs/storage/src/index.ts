export * from './object-store';
export { StorageError, StorageErrorCode, isStorageError, maxRequestBytes } from './errors';
export { encodeContinue, decodeContinue, keyAfter, prefixEnd, continueTokenVersion, ContinuePosition } from './continue-token';
export { Channel } from './channel';
export { SortedKeys } from './sorted-keys';
export { checkDeletePreconditions } from './preconditions';
export { EmbeddedObjectStore, EmbeddedObjectStoreOptions } from './embedded';
export { HistoryCompactor, HistoryCompactorOptions, defaultHistoryWindowMs } from './compactor';
export { CurrentRevisionReader } from './current-revision-reader';
