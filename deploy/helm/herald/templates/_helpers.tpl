{{/*
What each service needs from the others and from the secrets: a fact of the code, not a setting, so it lives
here rather than in values. "calls" are the services it asks synchronously (HERALD_SERVICES_<NAME>_URL, and
the NetworkPolicy lets it in there); "mintsTokens" services sign internal JWTs for those calls and get the
private key; "cursor" services sign list cursors; "cipher" services seal stored secrets.
*/}}
{{- define "herald.topology" -}}
api-gateway:
  calls: [profiles-service, accounts-service, posts-service, webhooks-service, usage-service, mcp-server]
  mintsTokens: true
  cursor: true
profiles-service:
  calls: []
  cursor: true
accounts-service:
  calls: [profiles-service, posts-service, usage-service]
  mintsTokens: true
  cursor: true
  cipher: true
posts-service:
  calls: [accounts-service, profiles-service, usage-service]
  mintsTokens: true
  cursor: true
delivery-worker:
  calls: [accounts-service, usage-service]
  mintsTokens: true
webhooks-service:
  calls: []
  cursor: true
  cipher: true
usage-service:
  calls: []
# stateless: no database, no Kafka, no internal token (it calls the public API with its callers' keys).
mcp-server:
  calls: [api-gateway]
  stateless: true
{{- end -}}

{{/* The topology entry of one service: include "herald.service.topology" (dict "root" $ "name" $name) | fromYaml */}}
{{- define "herald.service.topology" -}}
{{- $all := include "herald.topology" . | fromYaml -}}
{{- $entry := required (printf "unknown service %s (the chart knows %s)" .name (keys $all | sortAlpha | join ", ")) (get $all .name) -}}
{{- toYaml $entry -}}
{{- end -}}

{{- define "herald.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "herald.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "herald.labels" -}}
{{ include "herald.selectorLabels" . }}
app.kubernetes.io/part-of: herald
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "herald.image" -}}
{{- $image := .root.Values.image -}}
{{- $tag := $image.tag | default .root.Chart.AppVersion -}}
{{- if $image.registry -}}
{{- printf "%s/%s/%s:%s" $image.registry $image.group .name $tag -}}
{{- else -}}
{{- printf "%s/%s:%s" $image.group .name $tag -}}
{{- end -}}
{{- end -}}

{{/* HERALD_SERVICES_<NAME>_URL: profiles-service -> PROFILES, mcp-server -> MCP, as ServicesConfig maps
herald.services.profiles.url; the gateway, which mcp-server calls as any client does, is HERALD_MCP_GATEWAY_URL. */}}
{{- define "herald.urlVariable" -}}
{{- if eq . "api-gateway" -}}
HERALD_MCP_GATEWAY_URL
{{- else -}}
{{- printf "HERALD_SERVICES_%s_URL" (. | trimSuffix "-service" | trimSuffix "-server" | upper) -}}
{{- end -}}
{{- end -}}

{{- define "herald.databaseUrl" -}}
{{- $pg := .root.Values.postgresql -}}
{{- $url := printf "//%s:%v/%s" (required "postgresql.host is required" $pg.host) $pg.port .database -}}
{{- if $pg.parameters -}}{{- $url = printf "%s?%s" $url $pg.parameters -}}{{- end -}}
{{- $url -}}
{{- end -}}

{{- define "herald.secretRef" -}}
valueFrom:
  secretKeyRef:
    name: {{ required (printf "%s: the Secret's name is required" .what) .name }}
    key: {{ .key }}
    {{- if .optional }}
    optional: true
    {{- end }}
{{- end -}}

{{/* The gateway's dashboard settings (dashboard.*): its ConfigMap entries; the client secret is a Secret reference
in deployment.yaml. Refuses an OIDC setup the gateway could not sign anyone in with, rather than rendering it. */}}
{{- define "herald.dashboardConfig" -}}
{{- $dashboard := .Values.dashboard -}}
{{- if not (regexMatch "^([0-9]+(ms|s|m|h|d)|P[0-9A-Za-z.]+)$" (toString $dashboard.sessionTtl)) -}}
{{- fail (printf "dashboard.sessionTtl must be a duration such as 8h, 30m or PT8H, not %q" (toString $dashboard.sessionTtl)) -}}
{{- end -}}
HERALD_DASHBOARD_SESSION_TTL: {{ $dashboard.sessionTtl | toString | quote }}
{{- with $dashboard.oidc }}
{{- if .issuer }}
{{- if not .clientId }}
{{- fail "dashboard.oidc.clientId is required when dashboard.oidc.issuer is set (the client registered for Herald at the issuer)" }}
{{- end }}
{{- /* Plain http would carry the authorization code and tokens in the clear; a loopback issuer never leaves the host. */}}
{{- if not (regexMatch "^(https://[^/]+|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?)(/.*)?$" .issuer) }}
{{- fail (printf "dashboard.oidc.issuer must be an https:// URL (plain http only on a loopback address), not %q" .issuer) }}
{{- end }}
HERALD_OIDC_ISSUER: {{ .issuer | quote }}
HERALD_OIDC_CLIENT_ID: {{ .clientId | quote }}
{{- end }}
{{- end }}
{{- end -}}
