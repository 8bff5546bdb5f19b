package org.fawnpack.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.junit.jupiter.api.Test;

class EnergyCounterDisplayNamesTest {

  private static Properties properties() throws IOException {
    Properties properties = new Properties();
    try (InputStream in = EnergyCounter.class.getResourceAsStream("EnergyCounter.properties")) {
      assertNotNull(in, "org/fawnpack/energy/EnergyCounter.properties on the classpath");
      properties.load(in);
    }
    return properties;
  }

  @Test
  void bundle_everyCounterAndGroup_haveDisplayNamesAndNothingElse() throws IOException {
    Properties properties = properties();
    Set<String> expected = Arrays.stream(EnergyCounter.values()).map(c -> c.name() + ".name")
        .collect(Collectors.toCollection(TreeSet::new));
    expected.add("CounterGroupName");
    assertEquals(expected, new TreeSet<>(properties.stringPropertyNames()));
    for (String key : expected) {
      assertFalse(properties.getProperty(key).isBlank(), key);
    }
  }

  @Test
  void counters_inHadoop_showDisplayNames() throws IOException {
    Properties properties = properties();
    Counters counters = new Counters();
    for (EnergyCounter counter : EnergyCounter.values()) {
      counters.findCounter(counter).increment(1);
    }
    CounterGroup group = counters.getGroup(EnergyCounter.class.getName());
    assertEquals(properties.getProperty("CounterGroupName"), group.getDisplayName());
    for (EnergyCounter counter : EnergyCounter.values()) {
      String display = counters.findCounter(counter).getDisplayName();
      assertEquals(properties.getProperty(counter.name() + ".name"), display, counter.name());
      assertTrue(!display.equals(counter.name()), counter.name());
    }
  }
}
