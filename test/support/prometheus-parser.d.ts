// Types of parse-prometheus-text-format (it ships none): the metric families of a Prometheus text exposition.
declare module 'parse-prometheus-text-format' {
  interface MetricFamily {
    name: string;
    help: string;
    type: string;
    metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
