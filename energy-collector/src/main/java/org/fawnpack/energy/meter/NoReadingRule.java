package org.fawnpack.energy.meter;

/**
 * How a vendor MIB says "no reading" in a power column: not at all, with -1 only, or with any
 * negative value. A value matching the rule is a gap ({@code not-available}), not watts.
 */
enum NoReadingRule {
  /** No sentinel: every integer is a reading (raw OIDs; Raritan's Unsigned32 cannot be < 0). */
  NONE("") {
    @Override
    boolean noReading(long raw) {
      return false;
    }
  },
  /** -1 alone (Sentry4-MIB's range -1..10000; APC as Observium and LibreNMS read it). */
  MINUS_ONE("-1 means no reading") {
    @Override
    boolean noReading(long raw) {
      return raw == -1;
    }
  },
  /** EATON-EPDU-MIB: "A negative value indicates that this object is not available." */
  ANY_NEGATIVE("a negative value means no reading") {
    @Override
    boolean noReading(long raw) {
      return raw < 0;
    }
  };

  private final String meaning;

  NoReadingRule(String meaning) {
    this.meaning = meaning;
  }

  abstract boolean noReading(long raw);

  /** The rule in words, for the error message. */
  String meaning() {
    return meaning;
  }
}
