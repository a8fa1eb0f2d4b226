// Well-known keys of core/v1 objects, renamed from kubernetes.io/ as every Plinth key is.

// TaintNodeNotReady is v1.TaintNodeNotReady: a Node that is not (yet) Ready carries it.
export const TaintNodeNotReady = 'node.platform.io/not-ready';
