{{/* Labels every object carries. */}}
{{- define "plinth.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels; each workload adds app.kubernetes.io/component. */}}
{{- define "plinth.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "plinth.image" -}}
{{ printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "plinth.pkiSecret" -}}
{{ default (printf "%s-pki" .Release.Name) .Values.pki.existingSecret }}
{{- end }}

{{- define "plinth.natsUrl" -}}
{{ default (printf "tls://%s-nats:4222" .Release.Name) .Values.nats.external.url }}
{{- end }}

{{- define "plinth.etcdEndpoints" -}}
{{ default (printf "https://%s-etcd:2379" .Release.Name) .Values.etcd.external.endpoints }}
{{- end }}

{{- define "plinth.storageAddress" -}}
{{ printf "%s-storage:%v" .Release.Name .Values.storage.port }}
{{- end }}

{{/* etcdTls: the storage service talks TLS to etcd (always to the chart's own). */}}
{{- define "plinth.etcdTls" -}}
{{- if or (not .Values.etcd.external.endpoints) .Values.etcd.external.tls }}true{{ end }}
{{- end }}

{{/* Pod annotations: a checksum of the PKI values rolls the pods when a certificate changes
(the processes read their certificates at start), then the operator's own. */}}
{{- define "plinth.podAnnotations" -}}
checksum/pki: {{ toYaml .Values.pki | sha256sum | quote }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod settings shared by the Plinth components. */}}
{{- define "plinth.podSpec" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 1000
  runAsGroup: 1000
  fsGroup: 1000
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
{{ toYaml . }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Environment every Plinth container gets, OTLP export included when otel.endpoint is set
(the container adds OTEL_SERVICE_NAME). */}}
{{- define "plinth.env" -}}
- name: NO_COLOR
  value: "1"
{{- if .Values.otel.endpoint }}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.otel.endpoint | quote }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "k8s.namespace.name=%s,k8s.pod.name=$(POD_NAME)" .Release.Namespace | quote }}
{{- with .Values.otel.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
{{- end }}
