package org.fawnpack.minicluster;

import java.util.Collection;
import java.util.Map;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.sink.PrometheusMetricsSink;
import org.apache.hadoop.yarn.webapp.WebApp;

/**
 * Makes every daemon's {@code /prom} page of the embedded cluster show metrics.
 *
 * <p>With {@code hadoop.prometheus.endpoint.enabled}, each Hadoop web server makes a Prometheus
 * sink for its {@code /prom} page and registers it in the JVM's metrics system as
 * "prometheus". On a real cluster each daemon has its own JVM and metrics system; here they
 * share one, the first server to start (the JobHistory server's) takes the name, and every
 * later server's sink is refused ("Sink prometheus already exists"), so its page stays empty.
 * This registers each refused sink under a name of its own. As with {@code /jmx}, every page
 * then shows the metrics of the whole JVM: all daemons, every NodeManager's {@code fawn_energy}
 * lines apart by their {@code node} label.
 */
final class PrometheusSinks {
  /** The servlet-context attribute under which HttpServer2 keeps its sink (protected there). */
  private static final String SINK_ATTRIBUTE = "PROMETHEUS_SINK";

  private PrometheusSinks() {}

  /** Registers the sink of each web app that has one and whose sink the metrics system lacks. */
  static void registerEach(Map<String, WebApp> webApps) {
    MetricsSystem metrics = DefaultMetricsSystem.instance();
    @SuppressWarnings("unchecked")
    Collection<Object> registered =
        ((Map<String, Object>) HadoopInternals.read(metrics, "allSinks")).values();
    webApps.forEach((name, webApp) -> {
      HttpServer2 server = webApp.getHttpServer();
      Object sink = server.getWebAppContext().getServletContext().getAttribute(SINK_ATTRIBUTE);
      if (sink instanceof PrometheusMetricsSink && !containsSame(registered, sink)) {
        // The port keeps names apart across the clusters one test JVM may start in turn.
        String sinkName = "prometheus-" + name.replace(' ', '-').toLowerCase()
            + "-" + server.getConnectorAddress(0).getPort();
        metrics.register(sinkName, name + " /prom page", (PrometheusMetricsSink) sink);
      }
    });
  }

  private static boolean containsSame(Collection<Object> sinks, Object sink) {
    for (Object each : sinks) {
      if (each == sink) {
        return true;
      }
    }
    return false;
  }
}
