package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * One rendered Hadoop {@code *-site.xml}: properties in the order they were set, each with the
 * reason it has its value (written as the property's {@code <description>}, which Hadoop ignores).
 */
public final class SiteFile {
  /** A property and why it has this value. */
  public record Property(String key, String value, String reason) {}

  private final String name;
  private final Map<String, Property> properties = new LinkedHashMap<>();

  public SiteFile(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  public SiteFile set(String key, Object value, String reason) {
    properties.put(key, new Property(key, String.valueOf(value), reason));
    return this;
  }

  public String get(String key) {
    Property p = properties.get(key);
    return p == null ? null : p.value();
  }

  public List<Property> properties() {
    return Collections.unmodifiableList(new ArrayList<>(properties.values()));
  }

  /** The properties as a Hadoop configuration without defaults. */
  public Configuration toConfiguration() {
    Configuration conf = new Configuration(false);
    properties.values().forEach(p -> conf.set(p.key(), p.value(), name));
    return conf;
  }

  public String toXml() {
    StringBuilder x = new StringBuilder();
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<!-- Rendered by `fawn profile render`; edit the inventory or profile instead. -->\n");
    x.append("<configuration>\n");
    for (Property p : properties.values()) {
      x.append("  <property>\n");
      x.append("    <name>").append(escape(p.key())).append("</name>\n");
      x.append("    <value>").append(escape(p.value())).append("</value>\n");
      x.append("    <description>").append(escape(p.reason())).append("</description>\n");
      x.append("  </property>\n");
    }
    x.append("</configuration>\n");
    return x.toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
