// Reading and decoding request bodies: a size limit (413 above it), the accepted media types
// (415 otherwise), YAML or JSON into an object.
import { IncomingMessage } from 'node:http';
import { badRequest, decodeProtobufObject, requestEntityTooLarge, StatusError, unsupportedMediaType } from '@plinth/machinery';
import { goYamlToJson } from './go-yaml';
import { yamlNestingError } from './yaml-depth';

// maxRequestBodyBytes is kube-apiserver's default limit (3 MiB).
export const maxRequestBodyBytes = 3 * 1024 * 1024;

// decodableMediaTypes are the request bodies the server reads; protobuf bodies for the built-in
// kinds (@plinth/machinery's message tables).
export const decodableMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

const protobufBodyTypes = new Set(['application/vnd.kubernetes.protobuf', 'application/vnd.platform.protobuf']);

// readBody reads a request's body whole, refusing it (413) once past limit. It listens to the
// stream's events: an async iterator over it costs several times as much per request.
export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(requestEntityTooLarge(`limit is ${limit}`));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(prematureClose());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.resume();
        reject(requestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    // A body cut off (the client went away) closes the request before its end.
    const onClose = () => {
      stop();
      reject(prematureClose());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

export function mediaTypeOf(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

export function protobufMediaType(req: IncomingMessage): boolean {
  return protobufBodyTypes.has(mediaTypeOf(req));
}

// bodyFormat checks that a create or update body is JSON, YAML or protobuf.
export function bodyFormat(req: IncomingMessage): 'json' | 'yaml' | 'protobuf' {
  const mediaType = mediaTypeOf(req);
  if (mediaType === 'application/json' || mediaType === '') return 'json';
  if (mediaType === 'application/yaml') return 'yaml';
  if (protobufBodyTypes.has(mediaType)) return 'protobuf';
  throw unsupportedMediaType(decodableMediaTypes);
}

// YamlRefusal words the Status of a YAML (or protobuf) body that cannot be turned into JSON; each caller
// wraps the converter's message as its kube-apiserver handler does.
export type YamlRefusal = (message: string) => StatusError;

const convertingYaml: YamlRefusal = (message) => badRequest(`error converting YAML to JSON: ${message}`);

// yamlToJson turns a YAML body into JSON text as sigs.k8s.io/yaml does (YAML 1.1 scalars, see
// goYamlToJson), so that one field-validation path serves both.
// A document nested deeper than yamlNestingError allows is refused before the YAML parser runs.
export function yamlToJson(body: Buffer, refuse: YamlRefusal = convertingYaml): string {
  const text = body.toString('utf8');
  const nesting = yamlNestingError(text);
  if (nesting !== null) throw refuse(nesting);
  try {
    return goYamlToJson(text);
  } catch (err) {
    throw refuse((err as Error).message);
  }
}

// bodyToJson turns a JSON, YAML or protobuf body into JSON text; refuse words the refusal of
// an unreadable YAML or protobuf body (naming the kind expected, with a summary of the body).
export function bodyToJson(req: IncomingMessage, raw: Buffer, refuse?: YamlRefusal): string {
  const format = bodyFormat(req);
  return format === 'yaml' ? yamlToJson(raw, refuse) : format === 'protobuf' ? protobufToJson(raw, refuse) : raw.toString('utf8');
}

// protobufToJson decodes an enveloped protobuf body into JSON text.
export function protobufToJson(body: Buffer, refuse?: YamlRefusal): string {
  try {
    return JSON.stringify(decodeProtobufObject(body).object);
  } catch (err) {
    const message = (err as Error).message;
    throw refuse ? refuse(message) : badRequest(`the object provided is unrecognized: ${message}`);
  }
}
