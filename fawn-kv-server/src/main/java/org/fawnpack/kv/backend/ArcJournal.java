package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.Journal;

/**
 * A back-end's arcs share one FAWN-DS journal ({@code fawn.kv.sync.journal}, in
 * {@code <data dir>/journal}): one force makes every arc's writes since the last durable, where
 * each arc's file would be forced on its own. It is opened before any arc file, because its
 * replay puts back what a crash took from them.
 */
final class ArcJournal {
  static final String DIRECTORY = "journal";

  private ArcJournal() {}

  /**
   * {@code config} with the back-end's journal opened (and replayed) when it asks for one and
   * brings none of its own; else {@code config} as it is.
   */
  static DatastoreConfig openFor(Path dir, DatastoreConfig config) throws IOException {
    if (!config.journaled() || config.journal() != null) {
      return config;
    }
    return config.toBuilder().journal(Journal.open(dir.resolve(DIRECTORY), config)).build();
  }

  /** Closes the journal {@link #openFor} opened, after {@code failure} stopped the start. */
  static void closeOpenedFor(DatastoreConfig opened, DatastoreConfig given, Exception failure) {
    if (opened.journal() == null || opened.journal() == given.journal()) {
      return;
    }
    try {
      opened.journal().close(); // no arc wrote to it yet
    } catch (IOException closing) {
      failure.addSuppressed(closing);
    }
  }

  /**
   * Closes every arc, then the journal (or none: null), each even when one before failed:
   * the arcs' closes force every write the journal held. Returns the first failure, or null.
   */
  static IOException closeArcsThenJournal(Collection<ArcStore> arcs, Journal journal) {
    IOException first = null;
    for (ArcStore arc : arcs) {
      try {
        arc.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (journal != null) {
      try {
        journal.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    return first;
  }
}
