package org.fawnpack.kv.store;

/** A data log and the index that describes it: a datastore's state, swapped as one. */
record IndexedLog(DataLog log, HashIndex index) {}
