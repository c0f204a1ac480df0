{{/*
What each service needs from the others and from the secrets: a fact of the code, not a setting, so it lives
here rather than in values. "calls" are the services it asks synchronously (HERALD_SERVICES_<NAME>_URL, and
the NetworkPolicy lets it in there); "mintsTokens" services sign internal JWTs for those calls and get the
private key; "cursor" services sign list cursors; "cipher" services seal stored secrets.
*/}}
{{- define "herald.topology" -}}
api-gateway:
  calls: [profiles-service, accounts-service, posts-service, webhooks-service, usage-service]
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

{{/* HERALD_SERVICES_<NAME>_URL: profiles-service -> PROFILES, as ServicesConfig maps herald.services.profiles.url. */}}
{{- define "herald.urlVariable" -}}
{{- printf "HERALD_SERVICES_%s_URL" (. | trimSuffix "-service" | upper) -}}
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
