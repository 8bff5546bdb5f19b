package org.fawnpack.energy.service;

/**
 * What one meter contributed to an interval, after the host's share: joules, the power at the
 * interval's end (NaN when unknown), whether it was a gap, whether it is an estimate.
 */
record ChannelSample(double joules, double watts, boolean gap, boolean estimated) {
}
