package org.fawnpack.minicluster;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops the shared embedded cluster ({@link MiniClusterExtension#shared}) when the JUnit
 * launcher session ends. Registered through {@code META-INF/services}, so any test run with this
 * module on its class path uses it.
 *
 * <p>Why a session listener and not the root extension context's store: surefire with more than
 * one fork hands each fork its classes one at a time and runs each in a launch of its own, which
 * closes the root store after every class; the session spans every launch of the fork, so
 * classes that share a cluster still start it once per fork.
 */
public final class SharedClusterSessionListener implements LauncherSessionListener {

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    MiniClusterExtension.closeShared();
  }
}
