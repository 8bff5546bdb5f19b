package org.fawnpack.energy.service;

/** Monotonic time for intervals, wall time for history files; a seam for deterministic tests. */
interface EnergyClock {
  long nanoTime();

  long currentTimeMillis();

  EnergyClock SYSTEM = new EnergyClock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
      return System.currentTimeMillis();
    }
  };
}
