export { ProtobufError, readFields } from './wire';
export { decodeMessage, MessageTable, FieldSpec, FieldType } from './messages';
export { decodeProtobufObject, DecodedProtobuf, kindTables, protobufMagic, objectMetaTable } from './kinds';
