package org.fawnpack.kv.metrics;

import java.io.Closeable;
import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers FAWN-KV's metrics beans in the platform MBean server under the names Hadoop's
 * metrics system gives its daemons' beans ({@code Hadoop:service=FawnKv,name=...}), so an
 * operator finds them with the same JMX tools and queries as the NameNode's or a
 * NodeManager's. Without a Hadoop dependency: the node processes of FAWN-KV are not Hadoop's.
 */
public final class Jmx {
  private static final Logger LOG = LoggerFactory.getLogger(Jmx.class);
  public static final String DOMAIN = "Hadoop";
  public static final String SERVICE = "FawnKv";

  private Jmx() {}

  /** The name a bean {@code name} is registered under. */
  public static ObjectName nameOf(String name) {
    try {
      return new ObjectName(DOMAIN + ":service=" + SERVICE + ",name=" + ObjectName.quote(name));
    } catch (JMException e) {
      throw new IllegalArgumentException("not a bean name: " + name, e);
    }
  }

  /**
   * Registers {@code bean} as {@code name}; closing unregisters it. A name taken already (two
   * nodes of one id in one JVM, as in a test) is logged and the bean left out: metrics never
   * stop a node.
   */
  public static Closeable register(String name, Object bean) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName objectName = nameOf(name);
    try {
      server.registerMBean(bean, objectName);
    } catch (InstanceAlreadyExistsException e) {
      LOG.warn("{} is registered already; this node's metrics are not published", objectName);
      return () -> { };
    } catch (JMException e) {
      throw new IllegalStateException("cannot register " + objectName + ": " + e, e);
    }
    return () -> {
      try {
        server.unregisterMBean(objectName);
      } catch (JMException e) {
        LOG.debug("{} was unregistered already: {}", objectName, e.toString());
      }
    };
  }
}
