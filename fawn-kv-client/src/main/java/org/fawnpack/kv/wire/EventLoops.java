package org.fawnpack.kv.wire;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loops every FAWN-KV socket of this JVM runs on, servers and clients alike: one
 * thread per core unless {@link #configure}d (a wimpy node has one or two), daemons, made on
 * first use and kept for the JVM's life as a JVM-wide resource. Epoll when Netty's native
 * transport is on the class path and loads (it is not in Hadoop's or ZooKeeper's jars by
 * default), NIO otherwise.
 */
public final class EventLoops {
  private static final Logger LOG = LoggerFactory.getLogger(EventLoops.class);
  private static final boolean EPOLL = Epoll.isAvailable();
  private static volatile EventLoopGroup group;
  /** Threads of the group when it is made; 0 = one per core. */
  private static int threadsWanted;

  private EventLoops() {}

  /**
   * The group's thread count ({@code fawn.kv.io-threads}; 0 = one per core), set by a node
   * before its first socket. Once the group is made it stays as made: a later, different count
   * is logged and ignored (several nodes of one JVM share the group).
   */
  public static void configure(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("io threads " + threads + " < 0");
    }
    synchronized (EventLoops.class) {
      if (group == null) {
        threadsWanted = threads;
      } else if (threads != threadsWanted) {
        LOG.warn("the event loops of this JVM already run with {} threads; {} not applied",
            threadCount(threadsWanted), threadCount(threads));
      }
    }
  }

  private static int threadCount(int wanted) {
    return wanted > 0 ? wanted : Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  static EventLoopGroup group() {
    EventLoopGroup made = group;
    if (made == null) {
      synchronized (EventLoops.class) {
        made = group;
        if (made == null) {
          int threads = threadCount(threadsWanted);
          DefaultThreadFactory factory = new DefaultThreadFactory("fawn-kv-io", true);
          made = EPOLL ? new EpollEventLoopGroup(threads, factory)
              : new NioEventLoopGroup(threads, factory);
          group = made;
        }
      }
    }
    return made;
  }

  static Class<? extends ServerChannel> serverChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  static Class<? extends Channel> channel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** A client channel of the transport in use, not yet registered with a loop. */
  static Channel newChannel() {
    return EPOLL ? new EpollSocketChannel() : new NioSocketChannel();
  }

  /** "epoll" or "nio", for logs and the benchmark's table. */
  static String transport() {
    return EPOLL ? "epoll" : "nio";
  }
}
