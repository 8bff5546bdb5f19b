package org.fawnpack.energy;

import java.util.HashMap;
import java.util.Map;

/**
 * A container's account as the collector reports it: energy in microjoules (the ledger's unit,
 * so sums stay exact), how much of it was idle share, and how well it was measured.
 */
public record ContainerEnergy(long energyMicrojoules, long idleMicrojoules, long samples,
    long gaps, boolean estimated) {

  public ContainerEnergy {
    if (energyMicrojoules < 0 || idleMicrojoules < 0 || idleMicrojoules > energyMicrojoules
        || samples < 0 || gaps < 0) {
      throw new IllegalArgumentException("inconsistent container energy: energy="
          + energyMicrojoules + " idle=" + idleMicrojoules + " samples=" + samples + " gaps=" + gaps);
    }
  }

  public static final ContainerEnergy NONE = new ContainerEnergy(0, 0, 0, 0, false);

  /** What accrued between an earlier report of the same container and this one. */
  public ContainerEnergy minus(ContainerEnergy earlier) {
    return new ContainerEnergy(energyMicrojoules - earlier.energyMicrojoules,
        idleMicrojoules - earlier.idleMicrojoules, samples - earlier.samples,
        gaps - earlier.gaps, estimated);
  }

  /** The wire form: {@code energy_uj=.. idle_uj=.. samples=.. gaps=.. estimated=..}. */
  public String toWire() {
    return "energy_uj=" + energyMicrojoules + " idle_uj=" + idleMicrojoules + " samples=" + samples
        + " gaps=" + gaps + " estimated=" + estimated;
  }

  /** Parses {@link #toWire()}; unknown fields are ignored so the protocol can grow. */
  public static ContainerEnergy fromWire(String text) {
    Map<String, String> fields = new HashMap<>();
    for (String token : text.trim().split("\\s+")) {
      int eq = token.indexOf('=');
      if (eq > 0) {
        fields.put(token.substring(0, eq), token.substring(eq + 1));
      }
    }
    try {
      return new ContainerEnergy(Long.parseLong(required(fields, "energy_uj", text)),
          Long.parseLong(required(fields, "idle_uj", text)),
          Long.parseLong(required(fields, "samples", text)),
          Long.parseLong(required(fields, "gaps", text)),
          Boolean.parseBoolean(required(fields, "estimated", text)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number in collector answer '" + text + "'", e);
    }
  }

  private static String required(Map<String, String> fields, String name, String text) {
    String value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException("collector answer '" + text + "' has no " + name);
    }
    return value;
  }
}
