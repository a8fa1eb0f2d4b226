// Schemas of the kinds subresources take that no resource stores: Binding (pods/binding),
// TokenRequest (serviceaccounts/token) and Scale (the scale subresource), for decoding their
// bodies as Go decodes them.
import { s, Schema } from '../schema';
import { objectReferenceSchema } from './core';
import { kindSchema } from './meta';

export const bindingSchema: Schema = kindSchema({ target: objectReferenceSchema }, 'Binding ties one object to another.');

export const tokenRequestSchema: Schema = kindSchema(
  {
    spec: s.object(
      {
        audiences: s.list(s.string()),
        expirationSeconds: s.int64(),
        boundObjectRef: s.object({ kind: s.string(), apiVersion: s.string(), name: s.string(), uid: s.uid() }, { ref: 'io.k8s.api.authentication.v1.BoundObjectReference' }),
      },
      { ref: 'io.k8s.api.authentication.v1.TokenRequestSpec' },
    ),
    status: s.object({ token: s.string(), expirationTimestamp: s.time() }, { ref: 'io.k8s.api.authentication.v1.TokenRequestStatus' }),
  },
  'TokenRequest requests a token for a given service account.',
);

export const scaleSchema: Schema = kindSchema(
  {
    spec: s.object({ replicas: s.int32() }, { ref: 'io.k8s.api.autoscaling.v1.ScaleSpec' }),
    status: s.object({ replicas: s.int32(), selector: s.string() }, { ref: 'io.k8s.api.autoscaling.v1.ScaleStatus' }),
  },
  'Scale represents a scaling request for a resource.',
);
