#!/usr/bin/env bash
# gen-proto.sh compiles the wire contracts in proto/ to TypeScript in libs/proto/src/gen with
# ts-proto (binary encode/decode and grpc-js service definitions; no JSON methods: the wire is
# binary only). The output is checked in, because CI is not guaranteed to have protoc.
# Run it with `npm run proto` after changing a .proto file.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/libs/proto/src/gen"
protoc="${PROTOC:-protoc}"
command -v "$protoc" >/dev/null || { echo "protoc is not installed: apt-get install -y protobuf-compiler" >&2; exit 1; }

cd "$root/proto"
mapfile -t files < <(find plinth -name '*.proto' | sort)

rm -rf "$out"
mkdir -p "$out"
"$protoc" \
  --plugin=protoc-gen-ts_proto="$root/node_modules/.bin/protoc-gen-ts_proto" \
  --ts_proto_out="$out" \
  --ts_proto_opt=outputServices=grpc-js,esModuleInterop=true,outputJsonMethods=false,outputPartialMethods=false \
  --proto_path=. \
  "${files[@]}"
