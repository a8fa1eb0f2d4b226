export { ProtobufError, readFields, Field } from './wire';
export { k8sCodec, ProtoCodec } from './codec';
export { ProtoMessages, ProtoFieldRow } from './codec-types';
export { k8sMessages, k8sKinds } from './k8s-messages';
export {
  decodeEnvelope,
  decodeProtobufObject,
  DecodedProtobuf,
  encodeEnvelope,
  encodeProtobufObject,
  encodeProtobufStatus,
  encodeWatchFrame,
  Envelope,
  hasProtobufCodec,
  protobufMagic,
  protobufMessageOf,
} from './kinds';
