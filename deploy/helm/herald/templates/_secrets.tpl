{{/* The account every pod runs as: (include "herald.serviceAccountName" $) */}}
{{- define "herald.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
The Secrets one service reads, by name, sorted: (dict "root" $ "name" $name "svc" $svc). The same facts of the code
as deployment.yaml's env (herald.topology), so that checksum/secret covers what the pods read and nothing else; the
chart test "aChangedSecretRollsOnlyTheServicesThatReadIt" holds the two together.
*/}}
{{- define "herald.secretNames" -}}
{{- $root := .root -}}
{{- $values := $root.Values -}}
{{- $secrets := $values.secrets -}}
{{- $topology := include "herald.service.topology" (dict "root" $root "name" .name) | fromYaml -}}
{{- $names := list -}}
{{- if not $topology.stateless -}}
{{- $names = append $names (.svc.databaseSecret | default $values.postgresql.existingSecret) -}}
{{- $names = append $names $secrets.internalJwt.existingSecret -}}
{{- with $values.kafka.saslJaasConfigSecret.name }}{{ $names = append $names . }}{{ end -}}
{{- end -}}
{{- if $topology.cursor }}{{ $names = append $names $secrets.cursor.existingSecret }}{{ end -}}
{{- if $topology.cipher }}{{ $names = append $names $secrets.cipher.existingSecret }}{{ end -}}
{{- if eq .name "api-gateway" -}}
{{- $names = append $names $secrets.adminToken.existingSecret -}}
{{- with $values.dashboard.oidc }}{{ if and .issuer .clientSecret.secretName }}{{ $names = append $names .clientSecret.secretName }}{{ end }}{{ end -}}
{{- end -}}
{{- if eq .name "accounts-service" -}}
{{- with $secrets.connect.existingSecret }}{{ $names = append $names . }}{{ end -}}
{{- with $secrets.providers.existingSecret }}{{ $names = append $names . }}{{ end -}}
{{- end -}}
{{- $names | compact | uniq | sortAlpha | toJson -}}
{{- end -}}

{{/*
checksum/secret of one service's pods: (dict "root" $ "name" $name "svc" $svc). The data of each Secret it reads, as
Helm's lookup finds it during install and upgrade, so a rotated Secret rolls exactly the Deployments that read it on
the next helm upgrade. Without cluster access (helm template, GitOps renders) lookup finds nothing and only the names
count: then a rotation needs kubectl rollout restart.
*/}}
{{- define "herald.secretChecksum" -}}
{{- $root := .root -}}
{{- $seen := list -}}
{{- range $name := include "herald.secretNames" . | fromJsonArray -}}
{{- $secret := lookup "v1" "Secret" $root.Release.Namespace $name | default dict -}}
{{- $seen = append $seen (dict "name" $name "data" (get $secret "data" | default dict)) -}}
{{- end -}}
{{- $seen | toJson | sha256sum -}}
{{- end -}}
