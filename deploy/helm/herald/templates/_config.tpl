{{/* Each service's non-secret environment: (dict "root" $ "name" $name "svc" $svc). Names are the variables the
services read (docs/local-runtime.md, README "Configuration"). */}}
{{- define "herald.configData" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := .svc -}}
{{- $topology := include "herald.service.topology" (dict "root" $root "name" $name) | fromYaml -}}
# The image's application.properties binds 127.0.0.1 (right for ./herald up); a pod listens on its own address.
QUARKUS_HTTP_HOST: "0.0.0.0"
QUARKUS_HTTP_PORT: "8080"
{{- if not $topology.stateless }}
QUARKUS_DATASOURCE_REACTIVE_URL: {{ printf "postgresql:%s" (include "herald.databaseUrl" (dict "root" $root "database" $svc.database)) | quote }}
QUARKUS_DATASOURCE_JDBC_URL: {{ printf "jdbc:postgresql:%s" (include "herald.databaseUrl" (dict "root" $root "database" $svc.database)) | quote }}
KAFKA_BOOTSTRAP_SERVERS: {{ required "kafka.bootstrapServers is required" $root.Values.kafka.bootstrapServers | quote }}
{{- range $property, $value := $root.Values.kafka.config }}
{{ printf "KAFKA_%s" ($property | replace "." "_" | upper) }}: {{ $value | toString | quote }}
{{- end }}
{{- end }}
# Readiness turns DOWN this long before the server stops on SIGTERM, so the pod leaves its Service first.
QUARKUS_SHUTDOWN_DELAY: {{ $root.Values.shutdownDelay | quote }}
QUARKUS_LOG_CONSOLE_JSON_ENABLED: {{ $root.Values.observability.jsonLogs | toString | quote }}
{{- with $root.Values.observability.tracing }}
{{- if .otlpEndpoint }}
QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT: {{ .otlpEndpoint | quote }}
QUARKUS_OTEL_TRACES_SAMPLER_ARG: {{ .sampleRatio | toString | quote }}
{{- end }}
{{- end }}
{{- range $peer := $topology.calls }}
{{ include "herald.urlVariable" $peer }}: {{ printf "http://%s:8080" (include "herald.fullname" (dict "root" $root "name" $peer)) | quote }}
{{- end }}
{{- if eq $name "api-gateway" }}
# Its probes and metrics answer on the management interface only (the Service's "management" port), never on 8080.
QUARKUS_MANAGEMENT_HOST: "0.0.0.0"
QUARKUS_MANAGEMENT_PORT: "9000"
HERALD_OAUTH_RESOURCE: {{ printf "%s/api/v1" ($root.Values.publicUrl | trimSuffix "/") | quote }}
HERALD_PUBLIC_URL: {{ $root.Values.publicUrl | trimSuffix "/" | quote }}
{{ include "herald.dashboardConfig" $root }}
{{- if $svc.trustedProxies }}
QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING: "true"
QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED: "true"
QUARKUS_HTTP_PROXY_TRUSTED_PROXIES: {{ $svc.trustedProxies | quote }}
{{- end }}
{{- end }}
{{- if eq $name "accounts-service" }}
HERALD_CONNECT_PUBLIC_URL: {{ $root.Values.publicUrl | trimSuffix "/" | quote }}
{{- end }}
{{- range $variable, $value := $svc.env }}
{{ $variable }}: {{ $value | toString | quote }}
{{- end }}
{{- end -}}
