{{- define "koord.namespace" -}}{{ .Values.namespace.name }}{{- end -}}
{{- define "koord.labels" -}}
app.kubernetes.io/part-of: koordinator
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}
{{- define "koord.extenderImage" -}}
{{ .Values.extender.image.repository }}:{{ default .Chart.AppVersion .Values.extender.image.tag }}
{{- end -}}
{{- define "koord.managerImage" -}}
{{ .Values.manager.image.repository }}:{{ default .Chart.AppVersion .Values.manager.image.tag }}
{{- end -}}
{{- define "koord.deschedulerImage" -}}
{{ .Values.descheduler.image.repository }}:{{ default .Chart.AppVersion .Values.descheduler.image.tag }}
{{- end -}}
