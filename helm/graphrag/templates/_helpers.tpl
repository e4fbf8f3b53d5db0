{{/*
Chart name, truncated to 63 characters (DNS label).
*/}}
{{- define "graphrag.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name of the release's objects: <release>-<chart> unless the release name already holds the chart name.
*/}}
{{- define "graphrag.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Name of the LLM worker's objects.
*/}}
{{- define "graphrag.workerFullname" -}}
{{- printf "%s-llm-worker" (include "graphrag.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "graphrag.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels common to every object.
*/}}
{{- define "graphrag.labels" -}}
helm.sh/chart: {{ include "graphrag.chart" . }}
app.kubernetes.io/name: {{ include "graphrag.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: graphrag
{{- end }}

{{/*
Selector labels of the gateway.
*/}}
{{- define "graphrag.selectorLabels" -}}
app.kubernetes.io/name: {{ include "graphrag.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: gateway
{{- end }}

{{/*
Selector labels of the LLM worker.
*/}}
{{- define "graphrag.workerSelectorLabels" -}}
app.kubernetes.io/name: {{ include "graphrag.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: llm-worker
{{- end }}

{{- define "graphrag.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "graphrag.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "graphrag.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "graphrag.workerImage" -}}
{{- printf "%s:%s" .Values.worker.image.repository (default .Chart.AppVersion .Values.worker.image.tag) }}
{{- end }}

{{/*
Name of the Secret the gateway reads: the existing one, or the chart's.
*/}}
{{- define "graphrag.secretName" -}}
{{- default (printf "%s-secrets" (include "graphrag.fullname" .)) .Values.secrets.existingSecret }}
{{- end }}

{{/*
Whether the gateway reads a Secret at all: an existing one, or the chart's when it holds a value.
*/}}
{{- define "graphrag.hasSecret" -}}
{{- if or .Values.secrets.existingSecret .Values.secrets.adminToken .Values.secrets.neo4jPassword .Values.secrets.qdrantApiKey }}true{{- end }}
{{- end }}

{{/*
The gateway's non-secret environment (ConfigMap data): .Values.config without empty values, plus the LLM worker's
address and model (the LoRA adapter's name when one is served) when the worker is enabled and the values do not
name others.
*/}}
{{- define "graphrag.configData" -}}
{{- $cfg := dict }}
{{- range $k, $v := .Values.config }}
{{- if not (kindIs "invalid" $v) }}
{{- $s := toString $v }}
{{- /* whole numbers arrive as float64 (20000000 would print as 2e+07): write them as integers */}}
{{- if and (kindIs "float64" $v) (eq $v (float64 (int64 $v))) }}
{{- $s = int64 $v | toString }}
{{- end }}
{{- if ne $s "" }}
{{- $_ := set $cfg $k $s }}
{{- end }}
{{- end }}
{{- end }}
{{- if .Values.worker.enabled }}
{{- if not (hasKey $cfg "GRAPHRAG_LLM__BACKEND") }}
{{- $_ := set $cfg "GRAPHRAG_LLM__BACKEND" "vllm" }}
{{- end }}
{{- if not (hasKey $cfg "GRAPHRAG_LLM__VLLM_URL") }}
{{- $_ := set $cfg "GRAPHRAG_LLM__VLLM_URL" (printf "http://%s:%d" (include "graphrag.workerFullname" .) (int .Values.worker.service.port)) }}
{{- end }}
{{- if not (hasKey $cfg "GRAPHRAG_LLM__VLLM_MODEL") }}
{{- $_ := set $cfg "GRAPHRAG_LLM__VLLM_MODEL" .Values.worker.servedModelName }}
{{- end }}
{{- /* the LoRA adapter is the text2cypher model: answers stay on the base model */}}
{{- if and .Values.worker.loraAdapter.enabled (not (hasKey $cfg "GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA")) }}
{{- $_ := set $cfg "GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA" .Values.worker.loraAdapter.name }}
{{- end }}
{{- end }}
{{- toYaml $cfg }}
{{- end }}
