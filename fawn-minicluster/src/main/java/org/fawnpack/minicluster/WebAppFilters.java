package org.fawnpack.minicluster;

import static org.fawnpack.minicluster.HadoopInternals.call;
import static org.fawnpack.minicluster.HadoopInternals.read;

import com.google.inject.servlet.GuiceFilter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.webapp.WebApp;
import org.eclipse.jetty.servlet.FilterHolder;

/**
 * Makes every YARN web app of the embedded cluster serve its own HTML pages.
 *
 * <p>Hadoop installs Guice's servlet filter in each web app by class name, so Jetty builds it
 * with its no-argument constructor, and such a filter routes through Guice's one static
 * pipeline: the pipeline of the web app whose injector was created last in the JVM. On a real
 * cluster each daemon has its own JVM and that is right; here the ResourceManager, the
 * JobHistory server and every NodeManager share one JVM, so all their HTML pages went to one
 * web app (the others answered 404). Each web app also keeps the filter its own injector built
 * (for its stop); this puts that filter into the web app's Jetty filter holder, so requests
 * go through the web app's own pipeline. The REST APIs (Jersey, not Guice) never had the
 * problem.
 *
 * <p>The web apps are reached through fields Hadoop does not publish (checked against 3.5.0);
 * when a Hadoop upgrade renames one, {@link #giveEachItsOwn} fails naming it, and the
 * cluster's web UI test shows which pages are gone.
 */
final class WebAppFilters {

  private WebAppFilters() {}

  /** Each web app of {@code yarn} by a name for messages: the RM, JobHistory, every NM. */
  static Map<String, WebApp> webApps(MiniMRYarnCluster yarn, List<NodeManager> nodeManagers) {
    Map<String, WebApp> apps = new LinkedHashMap<>();
    apps.put("ResourceManager", (WebApp) call(yarn.getResourceManager(), "getWebapp"));
    apps.put("JobHistory", (WebApp) read(yarn.getHistoryServer().getClientService(), "webApp"));
    for (int i = 0; i < nodeManagers.size(); i++) {
      Object webServer = read(nodeManagers.get(i).getNMContext(), "webServer");
      apps.put("NodeManager " + i, (WebApp) read(webServer, "webApp"));
    }
    return apps;
  }

  /** Gives every web app of {@code yarn} its own Guice filter (see the class comment). */
  static void giveEachItsOwn(MiniMRYarnCluster yarn, List<NodeManager> nodeManagers) {
    webApps(yarn, nodeManagers).forEach(WebAppFilters::useOwnFilter);
  }

  private static void useOwnFilter(String name, WebApp webApp) {
    GuiceFilter own = (GuiceFilter) read(webApp, "guiceFilter");
    FilterHolder holder = webApp.getHttpServer().getWebAppContext().getServletHandler()
        .getFilter("guice");
    if (own == null || holder == null) {
      throw new IllegalStateException(name + ": its web app has no Guice filter to give it");
    }
    try {
      holder.stop();
      holder.setFilter(own);
      holder.start();
      holder.initialize(); // init() sets the pipeline up with this web app's servlet context
    } catch (Exception e) {
      throw new IllegalStateException(name + ": cannot give its web app its own Guice filter",
          e);
    }
  }
}
