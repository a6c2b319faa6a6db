#!/usr/bin/env bash
# A measured prototype: ONNX Runtime's C API called through the JDK's foreign-function API (JDK 22+) against
# ORT's Java binding, in one JVM, on one model: bytes allocated by the calling thread and ns per call, rounds
# interleaved. Not part of the build: Maven never compiles tools/ (the project stays on JDK 17); this runs the source
# file with a JDK 22+ (Temurin 25 here) and the onnxruntime jar from the local Maven repository. Quote its figures
# only from a run under ib-measure.
#
# usage: tools/ffm-call/run.sh MODEL.onnx INPUT_SHAPE [ROUNDS, default 7] [SECONDS per loop and round, default 1]
#   e.g. tools/ffm-call/run.sh models/mlp-tiny.onnx 1x64
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: tools/ffm-call/run.sh MODEL.onnx INPUT_SHAPE(e.g. 1x64) [ROUNDS] [SECONDS]" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
java="${JAVA22:-}"
if [[ -z "$java" ]]; then
  for j in /usr/lib/jvm/temurin-2[2-9]*/bin/java /usr/lib/jvm/*-2[2-9]*/bin/java; do [[ -x "$j" ]] && java="$j"; done
fi
[[ -n "$java" ]] || { echo "no JDK 22 or newer under /usr/lib/jvm; expected one, or JAVA22=/path/to/bin/java" >&2; exit 2; }
version="$(sed -n 's:.*<onnxruntime.version>\(.*\)</onnxruntime.version>.*:\1:p' "$here/../../pom.xml")"
jar="$HOME/.m2/repository/com/microsoft/onnxruntime/onnxruntime/$version/onnxruntime-$version.jar"
[[ -f "$jar" ]] || { echo "no $jar; expected the pom's ONNX Runtime in the local Maven repository (mvn package)" >&2; exit 2; }
lib="${XDG_CACHE_HOME:-$HOME/.cache}/inferbench/ffm-call/onnxruntime-$version"
if [[ ! -f "$lib/libonnxruntime4j_jni.so" ]]; then
  mkdir -p "$lib"
  unzip -q -o -j "$jar" 'ai/onnxruntime/native/linux-x64/*.so' -d "$lib"
fi
exec "$java" --enable-native-access=ALL-UNNAMED -Xms256m -Xmx256m -cp "$jar" "$here/OrtFfmCall.java" \
  "$lib" "$1" "${3:-7}" "${4:-1}" "$2"
