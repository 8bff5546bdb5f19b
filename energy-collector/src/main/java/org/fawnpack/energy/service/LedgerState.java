package org.fawnpack.energy.service;

import java.util.List;

/** The whole ledger at one moment: what a recovery checkpoint holds. */
record LedgerState(long meteredMicrojoules, long nodeIdleMicrojoules, long archivedMicrojoules,
    List<ContainerRecord> containers) {
}
