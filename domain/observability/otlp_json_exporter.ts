/**
 * The OTLP/HTTP span exporter with JSON bodies (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), built
 * as `@opentelemetry/exporter-trace-otlp-http` builds it, from the same exporter base and
 * transformer the protobuf exporter uses: that package's newest release trails the protobuf
 * exporter's by a patch and would bring a second copy of the SDK.
 */
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from "@opentelemetry/otlp-exporter-base/node-http";
import { JsonTraceSerializer, TraceExporterMetricsHelper } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";

export class OtlpJsonTraceExporter extends OTLPExporterBase<ReadableSpan[]>
  implements SpanExporter {
  constructor() {
    super(createOtlpHttpExportDelegate(
      convertLegacyHttpOptions({}, "TRACES", "v1/traces", { "Content-Type": "application/json" }),
      JsonTraceSerializer,
      "otlp_http_json_span_exporter",
      TraceExporterMetricsHelper,
      undefined,
    ));
  }
}
