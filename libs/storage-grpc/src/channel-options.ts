// Channel options of both ends, tuned for one busy connection between a gateway and the
// storage service: lists of many objects need large messages, a wide flow-control window keeps
// watch streams and big lists from stalling on window updates, and keepalive notices a dead
// or hung peer (a ping unanswered 10 s after it was sent, every 30 s: kube-apiserver's own
// etcd client settings; --storage-keepalive-time and --storage-keepalive-timeout) within 40 s instead of after TCP's hours, and resets the link. Channelz (grpc's introspection service) is
// not served, so the client skips its per-call bookkeeping; the server keeps it, because
// grpc-js 1.14 finds the connections that forceShutdown cuts through channelz's records.
import { ChannelOptions } from '@grpc/grpc-js';
import { defaultStorageLinkFlags } from '@plinth/config';

// maxMessageBytes bounds one message: a list page or a watch batch.
export const maxMessageBytes = 256 * 1024 * 1024;

export const clientChannelOptions: ChannelOptions = {
  'grpc.max_receive_message_length': maxMessageBytes,
  'grpc.max_send_message_length': maxMessageBytes,
  'grpc.keepalive_time_ms': defaultStorageLinkFlags.keepaliveTimeMs,
  'grpc.keepalive_timeout_ms': defaultStorageLinkFlags.keepaliveTimeoutMs,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc-node.flow_control_window': 16 * 1024 * 1024,
  // Writes are not idempotent (a replayed create answers KeyExists): the caller decides.
  'grpc.enable_retries': 0,
  // A restarted storage service is found again within seconds, not grpc's default two minutes.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 5_000,
  'grpc.enable_channelz': 0,
};

export const serverChannelOptions: ChannelOptions = {
  'grpc.max_receive_message_length': maxMessageBytes,
  'grpc.max_send_message_length': maxMessageBytes,
  'grpc.keepalive_time_ms': 60_000,
  'grpc.keepalive_timeout_ms': 20_000,
};
